package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.task.Tasks.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Streams on the io_uring loop's proactor transport, where a receive lands straight in the
 * {@link StreamReader}'s buffer: the reader lends its free room to a receive in flight, which the
 * kernel may fill at any moment, while the reader's task reads, views and compacts on the loop
 * thread. Every byte is checked against a {@link CounterStream}, so a byte written into the wrong
 * place, or a room moved under the kernel, shows up at its position.
 */
class ProactorStreamsTest {
    private static final String LOOP = "io_uring";

    /** Checks {@code data}'s bytes from its position to its limit against the counter from {@code at}; returns the position after them. */
    private static long check(ByteBuffer data, long at) {
        for (int i = data.position(); i < data.limit(); i++, at++) {
            if (data.get(i) != CounterStream.byteAt(at)) {
                throw new AssertionError("wrong byte at position " + at);
            }
        }
        return at;
    }

    private static long check(byte[] data, long at) {
        return check(ByteBuffer.wrap(data), at);
    }

    /**
     * 16 MiB through a reader that reads at random: views, readinto heap and direct buffers,
     * readexactly, naps that let the buffer fill past its limit (the reader pauses the
     * transport), and pauses by hand while a receive into the reader is in flight. Every byte
     * arrives once, in order, and most arrive in place.
     */
    @Test
    void aCounterStreamArrivesWholeThroughRandomReadsAndPauses() {
        long total = 16L << 20;
        NetTesting.run(LOOP, 60, () -> {
            EventLoop loop = getRunningLoop();
            Future<long[]> outcome = loop.createFuture(); // bytes checked, pauses with a receive in flight
            ProactorSocketTransport[] serverSide = new ProactorSocketTransport[1];
            Server server = startServer((reader, writer) -> {
                try {
                    ProactorSocketTransport t = assertInstanceOf(ProactorSocketTransport.class, writer.transport());
                    serverSide[0] = t;
                    outcome.setResult(readAtRandom(reader, t, total, new Random(19)));
                } catch (Throwable e) {
                    outcome.setException(e);
                }
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            Random sizes = new Random(17);
            for (long at = 0; at < total; ) {
                int n = (int) Math.min(total - at, 4 * (1 + sizes.nextInt(64 * 1024)));
                c.writer().write(CounterStream.chunk(at, n));
                at += n;
                c.writer().drain();
            }
            c.writer().writeEof();
            long[] got = await(outcome);
            assertEquals(total, got[0]);
            assertTrue(got[1] > 0, "no pause came while a receive into the reader was in flight");
            long inPlace = serverSide[0].bytesReceivedInPlace;
            assertTrue(inPlace > total / 2, "only " + inPlace + " of " + total + " bytes were received in place");
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /** Reads {@code total} bytes of the counter stream at random (see above); returns them and the pauses made with a receive in flight. */
    private static long[] readAtRandom(StreamReader reader, ProactorSocketTransport t, long total, Random rnd) throws Exception {
        ByteBuffer heap = ByteBuffer.allocate(200_000);
        ByteBuffer direct = ByteBuffer.allocateDirect(200_000);
        long at = 0;
        long pausesInFlight = 0;
        while (at < total) {
            int n = 1 + rnd.nextInt(150_000);
            switch (rnd.nextInt(6)) {
                case 0 -> at = check(reader.readView(n), at);
                case 1 -> {
                    heap.clear().limit(n);
                    assertTrue(reader.readinto(heap) > 0, "EOF at " + at);
                    at = check(heap.flip(), at);
                }
                case 2 -> {
                    direct.clear().limit(n);
                    assertTrue(reader.readinto(direct) > 0, "EOF at " + at);
                    at = check(direct.flip(), at);
                }
                case 3 -> at = check(reader.readexactly((int) Math.min(n, total - at)), at);
                case 4 -> {
                    sleep(0.001); // the receive into the reader's room reaches the kernel meanwhile
                    if (t.receiveInFlight()) {
                        pausesInFlight++;
                    }
                    t.pauseReading();
                    sleep(0.002);
                    t.resumeReading();
                }
                default -> sleep(0.001); // the buffer fills past 2 x limit: the reader pauses the transport
            }
        }
        assertEquals(0, reader.read(1).length, "bytes after the end");
        assertTrue(reader.atEof());
        return new long[] {at, pausesInFlight};
    }

    /** A streams server that hands its connection to the test ({@code accepted}) and closes it once {@code done}. */
    private static Server serverHandingOver(Future<StreamConnection> accepted, Future<Void> done) throws IOException {
        return startServer((reader, writer) -> {
            accepted.setResult(new StreamConnection(reader, writer));
            await(done);
            writer.close();
        }, "127.0.0.1", 0);
    }

    /**
     * A receive into the reader's room completes with bytes after pauseReading asked for its
     * cancel (the bytes beat the cancel): they are held, not fed to the reader, until
     * resumeReading, and then arrive in order.
     */
    @Test
    void bytesThatBeatTheCancelOfAReceiveIntoTheReaderWaitForResume() {
        // with defer, the receive's kernel half runs only in the loop's waiting enter, after the cancel: it never wins
        assumeFalse("defer".equalsIgnoreCase(System.getProperty("jasyncio.uring.taskrun")), "needs task work outside the loop's wait");
        NetTesting.run(LOOP, 20, () -> {
            EventLoop loop = getRunningLoop();
            Future<StreamConnection> accepted = loop.createFuture();
            Future<Void> done = loop.createFuture();
            Server server = serverHandingOver(accepted, done);
            try (Socket client = new Socket()) {
                client.connect(new InetSocketAddress("127.0.0.1", NetTesting.port(server)));
                OutputStream out = client.getOutputStream();
                StreamConnection ours = await(accepted);
                StreamReader reader = ours.reader();
                ProactorSocketTransport t = assertInstanceOf(ProactorSocketTransport.class, ours.writer().transport());
                int first = 64 * 1024; // bulk data: the reader's buffer goes direct, and lends its room from then on
                out.write(CounterStream.chunk(0, first).array());
                assertEquals(first, check(reader.readexactly(first), 0));
                sleep(0.02);
                assertTrue(t.receiveInFlight(), "no receive in flight");
                long inPlaceBefore = t.bytesReceivedInPlace;
                out.write(CounterStream.chunk(first, 4000).array()); // blocking: in the server's socket when it returns
                Thread.sleep(20); // the loop thread returns from a system call: the receive's kernel half runs
                t.pauseReading();
                sleep(0.1);
                assertEquals(4000, t.heldBytes(), "the receive's bytes did not beat its cancel, or were not held");
                assertEquals(inPlaceBefore, t.bytesReceivedInPlace, "bytes were fed to the reader while paused");
                assertFalse(reader.toString().contains("bytes"), "the reader got bytes while paused: " + reader);
                t.resumeReading();
                assertEquals(first + 4000, check(reader.readexactly(4000), first));
            }
            done.setResult(null);
            NetTesting.closeServer(server);
            return null;
        });
    }

    /**
     * The transport's protocol is replaced while a receive into the old reader's room is in
     * flight: the bytes go to the new protocol, not into the reader that lent the room.
     */
    @Test
    void bytesReceivedIntoARoomGoToTheProtocolThatReplacedItsReader() {
        NetTesting.run(LOOP, 20, () -> {
            EventLoop loop = getRunningLoop();
            Future<StreamConnection> accepted = loop.createFuture();
            Future<Void> done = loop.createFuture();
            Server server = serverHandingOver(accepted, done);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            StreamConnection ours = await(accepted);
            ProactorSocketTransport t = assertInstanceOf(ProactorSocketTransport.class, ours.writer().transport());
            int first = 64 * 1024;
            c.writer().write(CounterStream.chunk(0, first));
            assertEquals(first, check(ours.reader().readexactly(first), 0));
            sleep(0.02);
            assertTrue(t.receiveInFlight(), "no receive in flight");
            StringBuilder got = new StringBuilder();
            Future<Void> heard = loop.createFuture();
            t.setProtocol(new Protocol() {
                @Override
                public void dataReceived(ByteBuffer data) {
                    got.append(StandardCharsets.US_ASCII.decode(data));
                    if (got.length() >= 5 && !heard.isDone()) {
                        heard.setResult(null);
                    }
                }

                @Override
                public void connectionLost(Throwable exc) {
                }
            });
            c.writer().write("hello".getBytes(StandardCharsets.US_ASCII));
            await(heard);
            assertEquals("hello", got.toString());
            assertFalse(ours.reader().toString().contains("bytes"), "the old reader got bytes: " + ours.reader());
            done.setResult(null);
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /**
     * A BufferedProtocol that empties its buffer from a task, between a getBuffer and the next
     * (as its contract allows: the buffer is its own until it hands it out): every byte arrives
     * where the last getBuffer said. A receive left in flight into a buffer handed out earlier
     * would land where the protocol no longer expects it.
     */
    @Test
    void aBufferedProtocolThatMovesItsBytesBetweenCallsGetsEveryByte() {
        long total = 4L << 20;
        NetTesting.run(LOOP, 30, () -> {
            EventLoop loop = getRunningLoop();
            Future<Long> eof = loop.createFuture();
            String[] mismatch = new String[1];
            BufferedProtocol collector = new BufferedProtocol() {
                final ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
                int writeAt;
                long checked;

                /** Checks and drops every byte received so far: the next getBuffer starts at 0 again. */
                void consume() {
                    for (int i = 0; i < writeAt; i++, checked++) {
                        if (mismatch[0] == null && buf.get(i) != CounterStream.byteAt(checked)) {
                            mismatch[0] = "wrong byte at position " + checked;
                        }
                    }
                    writeAt = 0;
                }

                @Override
                public ByteBuffer getBuffer(int sizeHint) {
                    if (buf.capacity() - writeAt < 1024) {
                        consume();
                    }
                    return buf.duplicate().position(writeAt).limit(buf.capacity());
                }

                @Override
                public void bufferUpdated(int nbytes) {
                    writeAt += nbytes;
                }

                @Override
                public boolean eofReceived() {
                    consume();
                    eof.setResult(checked);
                    return false;
                }

                @Override
                public void connectionMade(Transport transport) {
                    Runnable[] every = new Runnable[1];
                    every[0] = () -> {
                        consume();
                        if (!eof.isDone()) {
                            loop.callLater(0.0005, every[0]);
                        }
                    };
                    every[0].run();
                }

                @Override
                public void connectionLost(Throwable exc) {
                }
            };
            Server server = Network.createServer(loop, () -> collector, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            for (long at = 0; at < total; at += 16 * 1024) {
                c.writer().write(CounterStream.chunk(at, 16 * 1024));
                c.writer().drain();
            }
            c.writer().writeEof();
            assertEquals(total, await(eof));
            assertNull(mismatch[0]);
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /**
     * The reader's side of a lend, without a socket: what a receive writes into the lent room
     * becomes the reader's next bytes, wherever the reader's unread bytes went meanwhile.
     */
    @Test
    void aRoomLentToTheKernelIsNeitherMovedNorWrittenByTheReader() {
        NetTesting.run(LOOP, 10, () -> {
            // read empty while lent: the reader rewinds to the start, the bytes are where they landed
            StreamReader reader = new StreamReader(getRunningLoop());
            reader.feedData(CounterStream.chunk(0, 40_000)); // direct from here on
            assertEquals(39_990, check(reader.readView(39_990), 0));
            ByteBuffer room = reader.lendRoom();
            assertNotNull(room);
            assertTrue(room.isDirect() && room.remaining() >= StreamReader.DIRECT_FROM, room.toString());
            assertEquals(40_000, check(reader.readView(10), 39_990)); // empty now
            room.put(0, CounterStream.chunk(40_000, 8000), 0, 8000); // the kernel's write
            reader.lentRoomFilled(room, 8000);
            assertEquals(48_000, check(reader.readView(100_000), 40_000));

            // fed meanwhile: the fed bytes come first, and the room's bytes are neither overwritten nor lost
            ByteBuffer room2 = reader.lendRoom();
            assertNotNull(room2);
            room2.put(0, CounterStream.chunk(52_000, 8000), 0, 8000); // the kernel writes before the feed
            reader.feedData(CounterStream.chunk(48_000, 4000));
            room2.put(0, CounterStream.chunk(52_000, 8000), 0, 8000); // and may write again after it
            reader.lentRoomFilled(room2, 8000);
            assertEquals(60_000, check(reader.readexactly(12_000), 48_000));

            // returned unfilled: nothing of the room arrives
            ByteBuffer room3 = reader.lendRoom();
            reader.lentRoomReturned(room3);
            reader.feedData(CounterStream.chunk(60_000, 4));
            assertEquals(60_004, check(reader.readView(10), 60_000));
            return null;
        });
    }
}
