package io.jasyncio.loop;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The default loop: {@link BaseEventLoop} over a {@link NioPoller} (java.nio's Selector). */
public final class NioEventLoop extends BaseEventLoop {
    /** A loop over a new {@link java.nio.channels.Selector}. */
    public NioEventLoop() {
        super(openPoller());
    }

    private static NioPoller openPoller() {
        try {
            return new NioPoller();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }
}
