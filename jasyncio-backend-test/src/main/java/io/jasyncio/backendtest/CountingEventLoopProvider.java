package io.jasyncio.backendtest;

import io.jasyncio.loop.spi.EventLoopProvider;
import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.loop.spi.Poller;

import java.io.IOException;

/**
 * Found through {@code META-INF/services}: {@code -Djasyncio.loop=counting} picks it, as any
 * backend outside core. The library's loop then runs over a {@link CountingBackend}: a poller
 * around nio's and a transport factory, both counting.
 */
public final class CountingEventLoopProvider implements EventLoopProvider {
    @Override
    public String name() {
        return "counting";
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public LoopBackend openBackend(LoopContract loop) throws IOException {
        return new CountingBackend(new CountingPoller<>(Poller.openNio()));
    }
}
