package io.jasyncio.backendtest;

import io.jasyncio.loop.BaseEventLoop;
import io.jasyncio.loop.Poller;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The library's loop over a {@link CountingPoller} around nio's poller. */
final class CountingEventLoop extends BaseEventLoop {
    CountingEventLoop() {
        super(new CountingPoller<>(openNio()));
    }

    private static Poller<?> openNio() {
        try {
            return Poller.openNio();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    /** What the loop asked of its poller so far. */
    CountingPoller<?> counts() {
        return (CountingPoller<?>) poller();
    }
}
