package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An I/O error on one datagram goes to errorReceived and the endpoint stays open, as in asyncio. */
@Timeout(30)
@EveryLoop
@EveryEngine
class UdpErrorsTest {
    private static final InetSocketAddress LOOPBACK_ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    /** Records errors and the first datagram. */
    static final class Recorder implements DatagramProtocol {
        final List<Exception> errors = new ArrayList<>();
        final Future<Exception> firstError;
        final Future<String> firstDatagram;
        final Future<Throwable> lost;

        Recorder(EventLoop loop) {
            firstError = loop.createFuture();
            firstDatagram = loop.createFuture();
            lost = loop.createFuture();
        }

        @Override
        public void datagramReceived(ByteBuffer data, SocketAddress address) {
            if (!firstDatagram.isDone()) {
                firstDatagram.setResult(StandardCharsets.US_ASCII.decode(data).toString());
            }
        }

        @Override
        public void errorReceived(Exception exc) {
            errors.add(exc);
            if (!firstError.isDone()) {
                firstError.setResult(exc);
            }
        }

        @Override
        public void connectionLost(Throwable exc) {
            lost.setResult(exc);
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aDatagramTooLongIsAnErrorForThatDatagramOnly(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            var receiver = Network.createDatagramEndpoint(loop, () -> new Recorder(loop), LOOPBACK_ANY_PORT, null, false);
            SocketAddress to = (SocketAddress) receiver.transport().getExtraInfo("sockname");
            var sender = Network.createDatagramEndpoint(loop, () -> new Recorder(loop), LOOPBACK_ANY_PORT, null, false);

            sender.transport().sendto(ByteBuffer.allocate(70_000), to); // over UDP's 65,507 bytes: EMSGSIZE
            assertEquals(1, sender.protocol().errors.size());
            assertInstanceOf(IOException.class, sender.protocol().errors.getFirst());
            assertFalse(sender.transport().isClosing(), "one bad datagram closed the endpoint");

            sender.transport().sendto(ByteBuffer.wrap("after".getBytes(StandardCharsets.US_ASCII)), to);
            assertEquals("after", waitFor(receiver.protocol().firstDatagram, 5.0));
            assertFalse(sender.protocol().lost.isDone());
            sender.transport().close();
            receiver.transport().close();
            return null;
        });
    }

    /** Datagrams sent after the endpoint closed are dropped, as asyncio, but not silently: past a few, each warns. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void sendsAfterCloseWarn(String loopName) {
        List<String> warnings;
        try (io.jasyncio.debug.LogCapture log = new io.jasyncio.debug.LogCapture("io.jasyncio.net")) {
            NetTesting.run(loopName, 20, () -> {
                EventLoop loop = getRunningLoop();
                var sender = Network.createDatagramEndpoint(loop, () -> new Recorder(loop), LOOPBACK_ANY_PORT, null, false);
                sender.transport().close();
                for (int i = 0; i < 10; i++) {
                    sender.transport().sendto(ByteBuffer.wrap(new byte[] {1}), LOOPBACK_ANY_PORT);
                }
                return null;
            });
            warnings = log.messages();
        }
        assertEquals(6, warnings.stream().filter("socket.send() raised exception."::equals).count(), warnings.toString());
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void anIcmpErrorOnAConnectedEndpointLeavesItOpen(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            var gone = Network.createDatagramEndpoint(loop, () -> new Recorder(loop), LOOPBACK_ANY_PORT, null, false);
            InetSocketAddress port = (InetSocketAddress) gone.transport().getExtraInfo("sockname");
            var client = Network.createDatagramEndpoint(loop, () -> new Recorder(loop), null, port, false);
            gone.transport().close();
            waitFor(gone.protocol().lost, 5.0);

            client.transport().sendto(ByteBuffer.wrap(new byte[] {1}), null); // port unreachable, reported later
            Exception error = waitFor(client.protocol().firstError, 5.0);
            assertInstanceOf(IOException.class, error);
            assertFalse(client.transport().isClosing(), "the ICMP error closed the endpoint");

            var back = Network.createDatagramEndpoint(loop, () -> new Recorder(loop), port, null, true);
            client.transport().sendto(ByteBuffer.wrap("again".getBytes(StandardCharsets.US_ASCII)), null);
            assertEquals("again", waitFor(back.protocol().firstDatagram, 5.0));
            assertTrue(client.protocol().errors.size() >= 1);
            client.transport().close();
            back.transport().close();
            return null;
        });
    }
}
