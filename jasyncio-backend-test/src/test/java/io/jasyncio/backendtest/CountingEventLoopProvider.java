package io.jasyncio.backendtest;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoopProvider;

/** Found through {@code META-INF/services}: {@code -Djasyncio.loop=counting} picks it, as any loop outside core. */
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
    public EventLoop create() {
        return new CountingEventLoop();
    }
}
