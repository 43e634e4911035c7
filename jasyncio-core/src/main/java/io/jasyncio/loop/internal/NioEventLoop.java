package io.jasyncio.loop.internal;

import io.jasyncio.loop.BaseEventLoop;
import io.jasyncio.loop.Poller;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The default loop: {@link BaseEventLoop} over the JDK's Selector ({@link Poller#openNio()}). */
public final class NioEventLoop extends BaseEventLoop {
    public NioEventLoop() {
        super(openPoller());
    }

    private static Poller openPoller() {
        try {
            return Poller.openNio();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }
}
