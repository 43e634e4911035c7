package io.jasyncio.uring;

import io.jasyncio.loop.spi.Poller;
import io.jasyncio.loop.spi.PollerContract;

import java.io.IOException;

/** The {@link Poller} contract, against the io_uring poller. */
class IoUringPollerContractTest extends PollerContract<IoUringPoller.Watch> {
    @Override
    protected Poller<IoUringPoller.Watch> newPoller() throws IOException {
        return new IoUringPoller();
    }
}
