package io.jasyncio.backendtest;

import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.net.spi.Proactor;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The counting backend: a {@link CountingPoller} around nio's, offering no {@link Proactor} (so
 * its stream connections read and write on readiness, as nio's) and counting how often the
 * network layer asked for one (once per stream transport it makes), so a test sees the loop and
 * the network layer call it, and only it.
 */
final class CountingBackend implements LoopBackend {
    final AtomicLong transportsMade = new AtomicLong();
    private final CountingPoller<?> poller;

    CountingBackend(CountingPoller<?> poller) {
        this.poller = poller;
    }

    @Override
    public CountingPoller<?> poller() {
        return poller;
    }

    @Override
    public <T> T feature(Class<T> type) {
        if (type == Proactor.class) {
            transportsMade.incrementAndGet(); // the network layer asks this once per stream transport it makes
            return null;
        }
        return LoopBackend.super.feature(type);
    }
}
