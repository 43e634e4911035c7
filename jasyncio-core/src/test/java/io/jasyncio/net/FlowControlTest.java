package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
@EveryLoop
@EveryEngine
class FlowControlTest {
    private static final int CHUNK = 64 * 1024;

    /** Reads, but stops for a moment after every few MiB: slower than the sender. */
    static final class SlowReader implements Protocol {
        final Future<Long> done;
        final long total;
        long received;
        long nextPause = 4 << 20;
        Transport transport;

        SlowReader(EventLoop loop, long total) {
            this.done = loop.createFuture();
            this.total = total;
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            received += data.remaining();
            if (received >= nextPause) {
                nextPause += 4 << 20;
                transport.pauseReading();
                getRunningLoop().callLater(0.002, transport::resumeReading);
            }
            if (received == total && !done.isDone()) {
                done.setResult(received);
            }
        }
    }

    /** Writes chunks while allowed; remembers the most it ever had buffered. */
    static final class Sender implements Protocol {
        final long total;
        final ByteBuffer chunk = ByteBuffer.wrap(NetTesting.pattern(CHUNK, 7));
        Transport transport;
        long sent;
        long maxBuffered;
        int pauses;
        boolean paused;

        Sender(long total) {
            this.total = total;
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
            pump();
        }

        void pump() {
            while (!paused && sent < total) {
                transport.write(chunk.clear());
                sent += CHUNK;
                maxBuffered = Math.max(maxBuffered, transport.getWriteBufferSize());
            }
        }

        @Override
        public void pauseWriting() {
            paused = true;
            pauses++;
        }

        @Override
        public void resumeWriting() {
            paused = false;
            pump();
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void hundredMebibytesThroughASlowReaderStayUnderTheHighWaterMark(String loopName) {
        long total = 100L << 20;
        NetTesting.run(loopName, 50, () -> {
            EventLoop loop = getRunningLoop();
            SlowReader[] reader = new SlowReader[1];
            Server server = Network.createServer(loop, () -> reader[0] = new SlowReader(loop, total), "127.0.0.1", 0);
            var c = Network.createConnection(loop, () -> new Sender(total), "127.0.0.1", NetTesting.port(server));
            while (reader[0] == null) {
                sleep(0.001);
            }
            assertEquals(total, (long) await(reader[0].done));
            Sender sender = c.protocol();
            assertEquals(total, sender.sent);
            assertTrue(sender.pauses > 0, "the slow reader never made the sender pause");
            assertTrue(sender.maxBuffered <= Transport.DEFAULT_HIGH_WATER + CHUNK,
                    "buffered " + sender.maxBuffered + " bytes, more than the high-water mark plus one write");
            c.transport().close();
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** Writes past the high water mark once, and closes from resumeWriting, when all of it went out. */
    static final class CloseOnResume implements Protocol {
        final Future<Void> lost;
        int connectionLostCalls;
        Transport transport;
        boolean paused;
        long written;

        CloseOnResume(EventLoop loop) {
            this.lost = loop.createFuture();
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
            transport.setWriteBufferLimits(CHUNK, 0); // resumed only once nothing is buffered
            for (int i = 0; i < 1024 && !paused; i++) { // until the socket takes no more and the buffer passes the mark
                transport.write(ByteBuffer.allocate(CHUNK));
                written += CHUNK;
            }
        }

        @Override
        public void pauseWriting() {
            paused = true;
        }

        @Override
        public void resumeWriting() {
            transport.close();
        }

        @Override
        public void connectionLost(Throwable exc) {
            connectionLostCalls++;
            if (!lost.isDone()) {
                lost.setResult(null);
            }
        }
    }

    /** A protocol that closes from resumeWriting, with nothing buffered, sees its connection lost once. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void closingFromResumeWritingLosesTheConnectionOnce(String loopName) {
        NetTesting.run(loopName, 50, () -> {
            EventLoop loop = getRunningLoop();
            Server server = Network.createServer(loop, () -> new SlowReader(loop, Long.MAX_VALUE), "127.0.0.1", 0);
            var c = Network.createConnection(loop, () -> new CloseOnResume(loop), "127.0.0.1", NetTesting.port(server));
            CloseOnResume sender = c.protocol();
            assertTrue(sender.paused, "the socket took " + sender.written + " bytes without a pause");
            await(sender.lost);
            for (int i = 0; i < 3; i++) {
                sleep(0); // a second connectionLost would come at the next turns
            }
            assertEquals(1, sender.connectionLostCalls);
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** drain() is what keeps a streams writer's buffer bounded. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void drainBoundsTheStreamWriter(String loopName) {
        int total = 16 << 20;
        NetTesting.run(loopName, 50, () -> {
            Server server = startServer((reader, writer) -> {
                int got = 0;
                while (true) {
                    byte[] data = reader.read(CHUNK);
                    if (data.length == 0) {
                        break;
                    }
                    got += data.length;
                    if (got % (1 << 20) < data.length) {
                        sleep(0.001); // slow
                    }
                }
                writer.write(Integer.toString(got).getBytes());
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            byte[] chunk = NetTesting.pattern(CHUNK, 3);
            long maxBuffered = 0;
            for (int sent = 0; sent < total; sent += CHUNK) {
                c.writer().write(chunk);
                maxBuffered = Math.max(maxBuffered, c.writer().transport().getWriteBufferSize());
                c.writer().drain();
            }
            c.writer().writeEof();
            assertEquals(Integer.toString(total), new String(c.reader().read(-1)));
            assertTrue(maxBuffered <= Transport.DEFAULT_HIGH_WATER + CHUNK, "buffered " + maxBuffered);
            c.writer().close();
            NetTesting.closeServer(server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void writeBufferLimitsFollowAsyncioRules(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            EventLoop loop = getRunningLoop();
            Server server = Network.createServer(loop, NetTesting.EchoProtocol::new, "127.0.0.1", 0);
            var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false),
                    "127.0.0.1", NetTesting.port(server));
            int[] defaults = c.transport().getWriteBufferLimits();
            assertEquals(64 * 1024, defaults[0]);
            assertEquals(16 * 1024, defaults[1]);
            c.transport().setWriteBufferLimits(1000);
            assertEquals(250, c.transport().getWriteBufferLimits()[1]);
            var e = assertThrows(IllegalArgumentException.class, () -> c.transport().setWriteBufferLimits(10, 20));
            assertEquals("high (10) must be >= low (20) must be >= 0", e.getMessage());
            c.transport().close();
            NetTesting.closeServer(server);
            return null;
        });
    }

    @Test
    void readBufferIsSharedPerLoopNotAllocatedPerRead() {
        NetTesting.run("nio", 10, () -> {
            assertTrue(ReadBuffer.of(getRunningLoop()) == ReadBuffer.of(getRunningLoop()));
            return null;
        });
    }
}
