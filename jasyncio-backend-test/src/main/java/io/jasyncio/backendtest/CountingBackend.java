package io.jasyncio.backendtest;

import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.net.spi.SocketTransportFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The counting backend: a {@link CountingPoller} around nio's, and a transport factory of its own
 * that counts the stream transports it makes (readiness ones, as nio's), so a test sees the loop
 * and the network layer call it, and only it.
 */
final class CountingBackend implements LoopBackend {
    private static final SocketTransportFactory READINESS = SocketTransportFactory.readiness();

    final AtomicLong transportsMade = new AtomicLong();
    private final CountingPoller<?> poller;
    private final SocketTransportFactory transports = (loop, channel, protocol, waiter, server) -> {
        transportsMade.incrementAndGet();
        return READINESS.socketTransport(loop, channel, protocol, waiter, server);
    };

    CountingBackend(CountingPoller<?> poller) {
        this.poller = poller;
    }

    @Override
    public CountingPoller<?> poller() {
        return poller;
    }

    @Override
    public <T> T feature(Class<T> type) {
        return type == SocketTransportFactory.class ? type.cast(transports) : LoopBackend.super.feature(type);
    }
}
