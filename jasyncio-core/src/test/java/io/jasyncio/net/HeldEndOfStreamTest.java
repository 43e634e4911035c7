package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
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
 * (io_uring) both arrive on the receive in flight when pauseReading is called, so the transport
 * holds them: this checks the order it delivers what it held.
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
}
