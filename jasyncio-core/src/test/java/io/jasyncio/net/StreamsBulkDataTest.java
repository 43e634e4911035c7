package io.jasyncio.net;

import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.ReadOnlyBufferException;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streams calls for bulk data, on real sockets: {@code readView} (the reader's own bytes,
 * passed on to a writer), {@code readinto} (one copy into the caller's buffer), and the reads
 * that land straight in a large reader's buffer. Each byte is checked against a
 * {@link CounterStream}, so a byte lost, doubled or moved shows at its position.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class StreamsBulkDataTest {
    static TestCertificates certs;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certs = TestCertificates.shared();
    }

    /** What the echo handler saw: whether its views were direct, and how its write buffer behaved. */
    static final class ViewEcho {
        boolean sawDirectView;
        int overHighWater;          // writes after which drain() had to wait
        long mostBufferedBeforeWrite;

        /** Small kernel buffers on the way back, so a slow reader backs the echo's writes up (loopback's autotune up to tens of MiB). */
        boolean smallSendBuffer;

        void handle(StreamReader reader, StreamWriter writer) throws Exception {
            if (smallSendBuffer) {
                ((SocketChannel) writer.getExtraInfo("socket")).setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            }
            while (true) {
                ByteBuffer view = reader.readView(Integer.MAX_VALUE);
                if (!view.hasRemaining()) {
                    break;
                }
                sawDirectView |= view.isDirect();
                int n = view.remaining();
                writer.write(view);
                long buffered = writer.transport().getWriteBufferSize();
                mostBufferedBeforeWrite = Math.max(mostBufferedBeforeWrite, buffered - n);
                if (buffered > Transport.DEFAULT_HIGH_WATER) {
                    overHighWater++;
                }
                writer.drain();
            }
            writer.close();
        }
    }

    /** Checks {@code data}'s bytes from index 0 to its limit against the counter stream from {@code at}; returns the position after them. */
    private static long checkCounter(ByteBuffer data, long at) {
        for (int i = 0; i < data.limit(); i++, at++) {
            if (data.get(i) != CounterStream.byteAt(at)) {
                throw new AssertionError("wrong byte at position " + at);
            }
        }
        return at;
    }

    /** Writes the first {@code total} bytes of the counter stream, 256 KiB at a time, draining after each. */
    private static Task<Void> sendCounterStream(StreamWriter writer, long total) {
        return createTask(() -> {
            int size = 256 * 1024;
            for (long at = 0; at < total; at += size) {
                writer.write(CounterStream.chunk(at, (int) Math.min(size, total - at)));
                writer.drain();
            }
            return null;
        });
    }

    /**
     * Reads with {@code readinto} into one reused buffer until {@code total} bytes, checking each;
     * sleeps after every {@code pauseEvery} bytes (0: never), so the peer's writes back up.
     */
    private static void receiveCounterStream(StreamReader reader, long total, long pauseEvery) throws Exception {
        ByteBuffer into = ByteBuffer.allocate(64 * 1024);
        long at = 0;
        long nextPause = pauseEvery;
        while (at < total) {
            into.clear();
            int n = reader.readinto(into);
            assertTrue(n > 0, "EOF after " + at + " of " + total + " bytes");
            assertEquals(n, into.position());
            at = checkCounter(into.flip(), at);
            if (pauseEvery > 0 && at >= nextPause) {
                nextPause += pauseEvery;
                sleep(0.002);
            }
        }
    }

    /** Writes a view straight to the socket and buffers only the rest; a slow peer still pauses it. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void viewsEchoedToASlowReaderArriveInOrderAndStillPauseTheWriter(String loopName) {
        long total = 8L << 20;
        NetTesting.run(loopName, 50, () -> {
            ViewEcho echo = new ViewEcho();
            echo.smallSendBuffer = true;
            Server server = startServer(echo::handle, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            ((SocketChannel) c.writer().getExtraInfo("socket")).setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
            Task<Void> sending = sendCounterStream(c.writer(), total);
            receiveCounterStream(c.reader(), total, 1 << 20);
            await(sending);
            c.writer().writeEof();
            assertEquals(0, c.reader().readinto(ByteBuffer.allocate(1)), "the echo sent more than it got");
            assertTrue(echo.sawDirectView, "bulk data never moved the reader's buffer off the heap");
            assertTrue(echo.overHighWater > 0, "the slow reader never made the echo's drain() wait");
            assertTrue(echo.mostBufferedBeforeWrite <= Transport.DEFAULT_HIGH_WATER,
                    "wrote with " + echo.mostBufferedBeforeWrite + " bytes buffered: drain() did not hold the writer back");
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void viewsEchoOverTls(String loopName) {
        long total = 4L << 20;
        NetTesting.run(loopName, 50, () -> {
            ViewEcho echo = new ViewEcho();
            Server server = startServer(echo::handle, "127.0.0.1", 0,
                    ServerOptions.defaults().withTls(TlsOptions.of(certs.server)));
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server), TlsOptions.of(certs.trustingClient));
            Task<Void> sending = sendCounterStream(c.writer(), total);
            receiveCounterStream(c.reader(), total, 0);
            await(sending);
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /** readinto: fills the room it is given, returns what is buffered without waiting for more, 0 at EOF. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void readintoTakesWhatIsBufferedAndZeroAtEof(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            Server server = startServer((reader, writer) -> {
                writer.write("0123456789".getBytes());
                assertEquals("go", new String(reader.readexactly(2)));
                writer.write("tail".getBytes());
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            StreamReader r = c.reader();

            ByteBuffer four = ByteBuffer.allocate(4);
            assertEquals(4, r.readinto(four));                 // exactly the room given
            assertEquals("0123", new String(four.array()));
            assertEquals(0, r.readinto(ByteBuffer.allocate(0))); // no room: nothing taken, no wait

            ByteBuffer big = ByteBuffer.allocate(100).put((byte) '>');
            assertEquals(6, r.readinto(big));                  // the rest that is buffered, no waiting for 100
            assertEquals(">456789", new String(big.array(), 0, big.position()));

            c.writer().write("go".getBytes());
            ByteBuffer tail = ByteBuffer.allocateDirect(100);
            assertEquals(4, r.readinto(tail));
            byte[] got = new byte[tail.flip().remaining()];
            tail.get(got);
            assertEquals("tail", new String(got));
            assertEquals(0, r.readinto(ByteBuffer.allocate(100)));  // EOF
            assertTrue(r.atEof());
            assertEquals(0, r.readinto(ByteBuffer.allocate(100)));  // and stays there
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /** readView: at most n bytes, read-only, empty at EOF; a negative n is everything up to EOF. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void readViewIsBoundedReadOnlyAndReadsToEof(String loopName) {
        int total = 1 << 20; // over twice the limit: reading to EOF must resume the paused transport
        NetTesting.run(loopName, 20, () -> {
            Server server = startServer((reader, writer) -> {
                writer.write(CounterStream.chunk(0, total));
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            StreamReader r = c.reader();
            ByteBuffer first = r.readView(3);
            assertEquals(3, first.remaining());
            assertEquals(0, first.position());
            assertTrue(first.isReadOnly());
            assertThrows(ReadOnlyBufferException.class, () -> first.put(0, (byte) 1));
            checkCounter(first, 0);
            ByteBuffer rest = r.readView(-1);
            assertEquals(total - 3, rest.remaining());
            checkCounter(rest, 3);
            assertTrue(r.atEof());
            assertFalse(r.readView(10).hasRemaining());
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /**
     * Reads that land straight in the reader's buffer keep its limits: the transport pauses above
     * twice the limit, readexactly larger than that still completes, nothing is lost.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void readsIntoTheReaderKeepItsFlowControl(String loopName) {
        long total = 4L << 20;
        NetTesting.run(loopName, 30, () -> {
            boolean[] paused = new boolean[1];
            Server server = startServer((reader, writer) -> {
                for (int i = 0; i < 1000 && writer.transport().isReading(); i++) {
                    sleep(0.01); // read nothing: the buffer fills past twice the limit
                }
                paused[0] = !writer.transport().isReading();
                byte[] head = reader.readexactly(1 << 20); // 16 x the limit: must resume reading
                long at = checkCounter(ByteBuffer.wrap(head), 0);
                ByteBuffer view;
                while ((view = reader.readView(Integer.MAX_VALUE)).hasRemaining()) {
                    at = checkCounter(view, at);
                }
                writer.write(Long.toString(at).getBytes());
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            await(sendCounterStream(c.writer(), total));
            c.writer().writeEof();
            assertEquals(Long.toString(total), new String(c.reader().read(-1)));
            assertTrue(paused[0], "the reader never paused its transport");
            NetTesting.closeAll(c, server);
            return null;
        });
    }
}
