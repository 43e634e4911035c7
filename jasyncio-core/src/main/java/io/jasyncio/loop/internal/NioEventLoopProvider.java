package io.jasyncio.loop.internal;

import io.jasyncio.loop.spi.EventLoopProvider;
import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.loop.spi.Poller;

import java.io.IOException;

/**
 * The nio backend (the JDK's Selector, {@link Poller#openNio()}), found through the same provider
 * lookup as every other backend: it runs wherever the JDK does.
 */
public final class NioEventLoopProvider implements EventLoopProvider {
    @Override
    public String name() {
        return "nio";
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public LoopBackend openBackend(LoopContract loop) throws IOException {
        return LoopBackend.of(Poller.openNio());
    }
}
