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

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.task.Tasks.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Streams on the io_uring loop's proactor transport, where a receive lands straight in the
 * {@link StreamReader}'s buffer: what only a receive in flight can meet (bytes that beat a
 * cancel, a protocol replaced meanwhile, a buffered protocol that moves its bytes between calls).
 * The lent room on every loop, this one included: {@code LentRoomTest}.
 */
class ProactorStreamsTest {
    private static final String LOOP = "io_uring";

    private static long check(ByteBuffer data, long at) {
        return LentRoomTest.check(data, at);
    }

    private static long check(byte[] data, long at) {
        return LentRoomTest.check(data, at);
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
                long inPlaceBefore = reader.bytesReceivedInPlace();
                out.write(CounterStream.chunk(first, 4000).array()); // blocking: in the server's socket when it returns
                Thread.sleep(20); // the loop thread returns from a system call: the receive's kernel half runs
                t.pauseReading();
                sleep(0.1);
                assertEquals(4000, t.heldBytes(), "the receive's bytes did not beat its cancel, or were not held");
                assertEquals(inPlaceBefore, reader.bytesReceivedInPlace(), "bytes were fed to the reader while paused");
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
}
