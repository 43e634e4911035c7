package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The band between the write marks (asyncio's {@code _FlowControlMixin}): pause only past the
 * high mark, resume only at or under the low one; anywhere between, nothing changes.
 */
@EveryLoop
@EveryEngine
@Timeout(30)
class WriteFlowControlTest {
    private static final int HIGH = 64 * 1024;
    private static final int LOW = 16 * 1024;
    private static final int BETWEEN = 32 * 1024;
    /** What the transport test buffers once paused: two 64 KiB chunks and 32 KiB, between the marks, after them. */
    private static final int PAUSED_BUFFER = 2 * 64 * 1024 + BETWEEN;

    /** Records the pause and resume calls it gets, with the transport's buffer size at each. */
    static final class Recording implements Protocol {
        final List<String> calls = new ArrayList<>();
        Transport transport;
        boolean paused;

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void pauseWriting() {
            paused = true;
            calls.add("pause");
        }

        @Override
        public void resumeWriting() {
            paused = false;
            calls.add("resume at " + (transport == null ? "?" : transport.getWriteBufferSize()));
        }
    }

    @Test
    void theMarksBoundABandWhereNothingChanges() {
        NetTesting.run("nio", 10, () -> {
            Recording protocol = new Recording();
            WriteFlowControl flow = new WriteFlowControl(getRunningLoop(), new OverProtocol(protocol));
            flow.setLimits(HIGH, LOW, 0);
            flow.pauseIfAboveHigh(BETWEEN);
            assertEquals(List.of(), protocol.calls, "32 KiB buffered: between the marks, no pause");
            flow.pauseIfAboveHigh(HIGH);
            assertEquals(List.of(), protocol.calls, "at the high mark: still no pause");
            flow.pauseIfAboveHigh(HIGH + 1);
            assertEquals(List.of("pause"), protocol.calls, "one byte past the high mark pauses");
            flow.pauseIfAboveHigh(HIGH + 1000);
            assertEquals(List.of("pause"), protocol.calls, "paused once until resumed");
            flow.resumeIfAtLow(HIGH);
            flow.resumeIfAtLow(BETWEEN);
            flow.resumeIfAtLow(LOW + 1);
            assertEquals(List.of("pause"), protocol.calls, "paused, above the low mark: no resume");
            flow.resumeIfAtLow(LOW);
            assertEquals(List.of("pause", "resume at ?"), protocol.calls, "at the low mark: resumed");
            flow.resumeIfAtLow(0);
            assertEquals(2, protocol.calls.size(), "resumed once");
            return null;
        });
    }

    /**
     * On a real socket whose peer does not read: once the kernel's buffers are full, the
     * transport's own buffer grows 1 KiB at a time and the protocol is paused exactly when it
     * passes the high mark, not before; when the peer reads again it is resumed once, at or
     * under the low mark. The drain must pass through the band on the way, or a resume at the
     * high mark would look the same: the kernel's send buffer is small (the readiness transport
     * flushes a few KiB at a time), and 160 KiB are buffered, whose last 32 KiB are a 64 KiB
     * chunk's worth of their own on the proactor (it sends a chunk at a time).
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aTransportPausesOnlyPastTheHighMarkAndResumesOnlyAtTheLowOne(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Future<Transport> accepted = loop.createFuture();
            Server server = Network.createServer(loop, () -> new Protocol() {
                @Override
                public void connectionMade(Transport transport) {
                    transport.pauseReading(); // the peer that does not read, for now
                    accepted.setResult(transport);
                }
            }, "127.0.0.1", 0);
            var c = Network.createConnection(loop, Recording::new, "127.0.0.1", NetTesting.port(server));
            Transport peer = waitFor(accepted, 10.0);
            Recording protocol = c.protocol();
            Transport transport = c.transport();
            transport.setWriteBufferLimits(HIGH, LOW);
            ((SocketChannel) transport.getExtraInfo("socket")).setOption(StandardSocketOptions.SO_SNDBUF, 8 * 1024);
            byte[] kib = new byte[1024];
            for (int i = 0; i < 256 * 1024 && transport.getWriteBufferSize() == 0; i++) { // at most 256 MiB
                transport.write(kib); // into the kernel's buffers until they are full
            }
            assertTrue(transport.getWriteBufferSize() > 0, "the kernel's buffers never filled");
            while (transport.getWriteBufferSize() + kib.length <= HIGH) {
                transport.write(kib);
                assertFalse(protocol.paused, "paused at " + transport.getWriteBufferSize() + " bytes, under the high mark");
            }
            while (transport.getWriteBufferSize() <= HIGH) {
                transport.write(kib);
            }
            assertEquals(List.of("pause"), protocol.calls, "paused past the high mark, at " + transport.getWriteBufferSize());
            while (transport.getWriteBufferSize() < PAUSED_BUFFER) {
                transport.write(kib); // paused writers may go on: the drain has to pass through the band
            }
            peer.resumeReading();
            for (int i = 0; i < 1000 && transport.getWriteBufferSize() > LOW; i++) {
                sleep(0.01); // the peer drains what it is sent
            }
            assertTrue(transport.getWriteBufferSize() <= LOW, "the peer reads again, but the buffer stays at "
                    + transport.getWriteBufferSize());
            assertEquals(2, protocol.calls.size(), "drained to the low mark without resuming the writer: " + protocol.calls);
            long resumedAt = Long.parseLong(protocol.calls.get(1).substring("resume at ".length()));
            assertTrue(resumedAt <= LOW, "resumed at " + resumedAt + " bytes, above the low mark");
            transport.close();
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** The one transport method flow control uses: the protocol to call. */
    private record OverProtocol(BaseProtocol protocol) implements BaseTransport {
        @Override
        public void close() {
        }

        @Override
        public boolean isClosing() {
            return false;
        }

        @Override
        public Object getExtraInfo(String name) {
            return null;
        }

        @Override
        public BaseProtocol getProtocol() {
            return protocol;
        }

        @Override
        public void setProtocol(BaseProtocol protocol) {
            throw new UnsupportedOperationException("fixed protocol");
        }
    }
}
