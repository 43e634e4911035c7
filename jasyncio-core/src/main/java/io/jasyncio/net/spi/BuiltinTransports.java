package io.jasyncio.net.spi;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.BaseProtocol;
import io.jasyncio.net.Server;
import io.jasyncio.net.Transport;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.channels.SocketChannel;

/**
 * The two stream transports of core's {@code net} package, made for {@link SocketTransportFactory}:
 * {@code SocketTransport} (readiness) and {@code ProactorSocketTransport} (completion). Both classes
 * stay package-private in {@code net}, which users browse; this module opens its packages to
 * itself, so a private lookup reaches their constructors.
 */
final class BuiltinTransports {
    private static final MethodHandle SOCKET_TRANSPORT;
    private static final MethodHandle PROACTOR_TRANSPORT;

    static {
        try {
            Class<?> socket = Class.forName("io.jasyncio.net.SocketTransport");
            Class<?> proactor = Class.forName("io.jasyncio.net.ProactorSocketTransport");
            SOCKET_TRANSPORT = MethodHandles.privateLookupIn(socket, MethodHandles.lookup()).findConstructor(socket,
                    MethodType.methodType(void.class, EventLoop.class, SocketChannel.class, BaseProtocol.class,
                            Future.class, Server.class));
            PROACTOR_TRANSPORT = MethodHandles.privateLookupIn(proactor, MethodHandles.lookup()).findConstructor(proactor,
                    MethodType.methodType(void.class, EventLoop.class, Proactor.class, SocketChannel.class,
                            BaseProtocol.class, Future.class, Server.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static final SocketTransportFactory READINESS = (loop, channel, protocol, waiter, server) -> {
        try {
            return (Transport) SOCKET_TRANSPORT.invoke(loop, channel, protocol, waiter, server);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    };

    private BuiltinTransports() {
    }

    /**
     * Completion transports over {@code proactor}. Made when the loop is made: finding the
     * constructor above loaded the transport's class and its helpers then, not at the first
     * connection, which may come when no descriptor is left to open class files.
     */
    static SocketTransportFactory completion(Proactor proactor) {
        return (loop, channel, protocol, waiter, server) -> {
            try {
                return (Transport) PROACTOR_TRANSPORT.invoke(loop, proactor, channel, protocol, waiter, server);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        };
    }
}
