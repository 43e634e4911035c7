package io.jasyncio.net.spi;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.BaseProtocol;
import io.jasyncio.net.Server;
import io.jasyncio.net.Transport;

import java.nio.channels.SocketChannel;

/**
 * How a loop's backend makes the transport of each stream connection it makes or accepts
 * (asyncio's {@code _make_socket_transport}, which each loop class overrides). A backend offers
 * one as a feature ({@code LoopBackend.feature(SocketTransportFactory.class)}); a backend that
 * offers none gets {@link #readiness()}, the transport nio and epoll use.
 */
@FunctionalInterface
public interface SocketTransportFactory {
    /**
     * A transport over {@code channel} (connected, non-blocking) for {@code protocol}, started:
     * it calls {@code connectionMade} soon, then completes {@code waiter} (when not null).
     * {@code server} is the server that accepted it, or null.
     */
    Transport socketTransport(EventLoop loop, SocketChannel channel, BaseProtocol protocol, Future<Void> waiter,
                              Server server);

    /** Transports that read and write on readiness ({@code addReader}/{@code addWriter}). */
    static SocketTransportFactory readiness() {
        return BuiltinTransports.READINESS;
    }

    /**
     * Transports that read and write by completion through {@code proactor} (asyncio's proactor
     * transports): what a completion backend such as io_uring's offers. Make it when the loop is
     * made: it loads the transport's classes now, not at the first connection, which may come
     * when no descriptor is left to open their class files (and the failure would stick).
     */
    static SocketTransportFactory completion(Proactor proactor) {
        return BuiltinTransports.completion(proactor);
    }
}
