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
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes and the end of the stream that arrive while reading is paused reach the protocol in
 * the order they came once reading resumes: the bytes, then eofReceived. On the proactor
 * (io_uring) the bytes arrive on the receive in flight when pauseReading is called, so the
 * transport holds them; the order it delivers held bytes and a held end of the stream is checked
 * over a scripted proactor.
 */
@EveryLoop
@EveryEngine
@Timeout(30)
class HeldEndOfStreamTest {

    /** Records what it is handed, in order. */
    static final class Recording implements Protocol {
        final List<String> events = new ArrayList<>();
        Future<Transport> made;
        Future<Void> ended;

        @Override
        public void connectionMade(Transport transport) {
            made.setResult(transport);
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            String text = new String(b, StandardCharsets.US_ASCII);
            if (!events.isEmpty() && events.getLast().startsWith("data ")) { // how the bytes are cut up does not matter
                events.set(events.size() - 1, events.getLast() + text);
            } else {
                events.add("data " + text);
            }
        }

        @Override
        public boolean eofReceived() {
            events.add("eof");
            ended.setResult(null);
            return false;
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void bytesThenTheEndArriveWhilePausedAndAreDeliveredInThatOrder(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Recording protocol = new Recording();
            protocol.made = loop.createFuture();
            protocol.ended = loop.createFuture();
            Server server = Network.createServer(loop, () -> protocol, "127.0.0.1", 0);
            try (Socket peer = new Socket()) {
                peer.connect(new InetSocketAddress("127.0.0.1", NetTesting.port(server)), 5_000);
                Transport transport = waitFor(protocol.made, 10.0);
                ProactorSocketTransport proactor = transport instanceof ProactorSocketTransport p ? p : null;
                for (int i = 0; i < 1000 && proactor != null && !proactor.receiveInFlight(); i++) {
                    sleep(0); // until the receive is in flight
                }
                peer.getOutputStream().write("held bytes".getBytes(StandardCharsets.US_ASCII));
                peer.shutdownOutput(); // both land on the receive in flight...
                transport.pauseReading(); // ...which is cancelled only now
                sleep(0);
                for (int i = 0; i < 1000 && proactor != null && proactor.receiveInFlight(); i++) {
                    sleep(0.001); // until the cancel ended the receive, after what came before it
                }
                assertEquals(List.of(), protocol.events, "nothing is delivered while paused");
                if (proactor != null) {
                    assertTrue(proactor.heldBytes() > 0, "the proactor held what arrived during the pause");
                }
                transport.resumeReading();
                waitFor(protocol.ended, 10.0);
                assertEquals(List.of("data held bytes", "eof"), protocol.events);
            }
            NetTesting.closeServer(server);
            return null;
        });
    }

    /**
     * The order the proactor transport keeps itself, whatever the kernel does: bytes and then the
     * end of the stream that a multishot receive brings after pauseReading asked for its cancel
     * (both beat it) are held, and delivered in that order at resumeReading. Over a scripted
     * proactor that brings both, as the kernel's multishot receive may; the ring's receives of
     * one buffer each bring the end on a receive of its own, after the resume (the test above).
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void heldBytesThenAHeldEndAreDeliveredInThatOrder(String loopName) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel peer = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept()) {
            accepted.configureBlocking(false);
            NetTesting.run(loopName, 10, () -> {
                EventLoop loop = getRunningLoop();
                Recording protocol = new Recording();
                protocol.made = loop.createFuture();
                protocol.ended = loop.createFuture();
                ScriptedProactor proactor = new ScriptedProactor(loop);
                ProactorSocketTransport transport = new ProactorSocketTransport(loop, proactor, accepted, protocol, null, null);
                waitFor(protocol.made, 10.0);
                sleep(0); // the first receive is asked for once connectionMade ran
                ScriptedProactor.Slot reads = proactor.slots().getFirst();
                assertEquals(List.of("recvMultishot"), reads.asked);
                transport.pauseReading();
                assertEquals(List.of("recvMultishot", "cancel"), reads.asked);
                reads.receive("held bytes".getBytes(StandardCharsets.US_ASCII), true); // both beat the cancel
                reads.receive(new byte[0], false);
                sleep(0);
                sleep(0);
                assertEquals(List.of(), protocol.events, "nothing is delivered while paused");
                assertEquals(10, transport.heldBytes(), "the bytes were held");
                transport.resumeReading();
                waitFor(protocol.ended, 10.0);
                assertEquals(List.of("data held bytes", "eof"), protocol.events);
                return null;
            });
        }
    }
}
