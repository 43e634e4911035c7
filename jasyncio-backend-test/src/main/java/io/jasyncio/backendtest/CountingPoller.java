package io.jasyncio.backendtest;

import io.jasyncio.loop.spi.IoRegistration;
import io.jasyncio.loop.spi.Poller;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link Poller} that hands every call to another one and counts them: a backend built outside core. */
final class CountingPoller<R extends IoRegistration> implements Poller<R> {
    final AtomicLong interestChanges = new AtomicLong();
    final AtomicLong selects = new AtomicLong();
    final AtomicLong eventsReported = new AtomicLong();
    final AtomicLong wakeups = new AtomicLong();
    private final Poller<R> inner;

    CountingPoller(Poller<R> inner) {
        this.inner = inner;
    }

    @Override
    public void setInterest(R registration, int ops) throws IOException {
        interestChanges.incrementAndGet();
        inner.setInterest(registration, ops);
    }

    @Override
    public R registrationOf(SelectableChannel channel) {
        return inner.registrationOf(channel);
    }

    @Override
    public R newRegistration(SelectableChannel channel) {
        return inner.newRegistration(channel);
    }

    @Override
    public int select(long timeoutNanos, IoEventSink<? super R> sink) throws IOException {
        selects.incrementAndGet();
        int events = inner.select(timeoutNanos, sink);
        eventsReported.addAndGet(events);
        return events;
    }

    @Override
    public void wakeup() {
        wakeups.incrementAndGet();
        inner.wakeup();
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
