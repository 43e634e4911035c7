package io.jasyncio.loop.spi;

import java.io.IOException;

/** The {@link Poller} contract, against java.nio's Selector. */
class NioPollerContractTest extends PollerContract<NioPoller.Registration> {
    @Override
    protected Poller<NioPoller.Registration> newPoller() throws IOException {
        return new NioPoller();
    }
}
