package io.jasyncio.epoll;

import io.jasyncio.loop.spi.Poller;
import io.jasyncio.loop.spi.PollerContract;

import java.io.IOException;

/** The {@link Poller} contract, against native epoll. */
class EpollPollerContractTest extends PollerContract<EpollPoller.Watch> {
    @Override
    protected Poller<EpollPoller.Watch> newPoller() throws IOException {
        return new EpollPoller();
    }
}
