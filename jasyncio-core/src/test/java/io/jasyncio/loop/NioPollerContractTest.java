package io.jasyncio.loop;


import java.io.IOException;

/** The {@link Poller} contract, against java.nio's Selector. */
class NioPollerContractTest extends PollerContract {
    @Override
    protected Poller newPoller() throws IOException {
        return new NioPoller();
    }
}
