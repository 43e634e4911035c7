package io.jasyncio.loop.internal;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoopProvider;

/** The nio loop, found through the same provider lookup as every other loop: it runs wherever the JDK does. */
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
    public EventLoop create() {
        return new NioEventLoop();
    }
}
