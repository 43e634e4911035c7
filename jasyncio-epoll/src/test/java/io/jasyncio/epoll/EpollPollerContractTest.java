package io.jasyncio.epoll;

import io.jasyncio.loop.Poller;
import io.jasyncio.loop.PollerContract;

import java.io.IOException;

/** The {@link Poller} contract, against native epoll. */
class EpollPollerContractTest extends PollerContract {
    @Override
    protected Poller newPoller() throws IOException {
        return new EpollPoller();
    }
}
