package io.jasyncio.loop;

import io.jasyncio.internal.loop.IoRegistration;
import io.jasyncio.internal.loop.Poller;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** The {@link Poller} contract, against java.nio's Selector. */
class NioPollerContractTest extends PollerContract {
    @Override
    protected Poller newPoller() throws IOException {
        return new NioPoller();
    }

    /**
     * A listener the loop stops watching, then closes (a server closing), refuses connections at
     * once, as asyncio's does: not only after the selector's next turn, which would first complete
     * handshakes into its backlog and then reset them.
     */
    @Test
    void aListenerNoLongerWatchedIsClosedAtOnce() throws IOException {
        Poller poller = newPoller();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            IoRegistration registration = new IoRegistration(listener);
            poller.setInterest(registration, Poller.READ);
            poller.select(0, (r, ops) -> { }); // registered with the selector for real
            poller.setInterest(registration, 0);
            listener.close();
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
        } finally {
            poller.close();
        }
    }
}
