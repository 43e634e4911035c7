package io.jasyncio.poll;

import io.jasyncio.loop.spi.Poller;
import io.jasyncio.loop.spi.PollerContract;

import java.io.IOException;

/** The {@link Poller} contract, against poll(2) through the native kit. */
class PollPollerContractTest extends PollerContract<PollPoller.Watch> {
    @Override
    protected Poller<PollPoller.Watch> newPoller() throws IOException {
        return new PollPoller();
    }
}
