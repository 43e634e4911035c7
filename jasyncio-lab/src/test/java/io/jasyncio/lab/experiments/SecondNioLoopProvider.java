package io.jasyncio.lab.experiments;

import io.jasyncio.loop.spi.EventLoopProvider;
import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.loop.spi.Poller;

import java.io.IOException;

/**
 * A second loop implementation for tests only (another NIO loop under another name), available
 * only while {@link #PROPERTY} is "true": it lets the [loops] experiment's comparison path run
 * before the native loop exists.
 */
public final class SecondNioLoopProvider implements EventLoopProvider {
    static final String PROPERTY = "jasyncio.test.secondLoop";

    @Override
    public String name() {
        return "nio-copy";
    }

    @Override
    public boolean isAvailable() {
        return Boolean.getBoolean(PROPERTY);
    }

    @Override
    public LoopBackend openBackend(LoopContract loop) throws IOException {
        return LoopBackend.of(Poller.openNio());
    }
}
