package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import io.jasyncio.task.Tasks;

import java.nio.ByteBuffer;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A byte stream whose every position is checkable: the big-endian 32-bit counter 0, 1, 2, ...
 * A byte lost, doubled or moved anywhere shows up as a wrong byte at a known position.
 */
final class CounterStream {
    private CounterStream() {
    }

    /** The byte at {@code position} of the stream. */
    static byte byteAt(long position) {
        long word = position >>> 2;
        return (byte) (word >>> (8 * (3 - (position & 3))));
    }

    /** {@code length} bytes of the stream from {@code position} (a multiple of 4), ready to write. */
    static ByteBuffer chunk(long position, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        for (long word = position >>> 2; b.remaining() >= 4; word++) {
            b.putInt((int) word);
        }
        return b.flip();
    }

    /** Writes the first {@code total} bytes of the stream to {@code transport}, in chunks of 256 KiB. */
    static void writeAll(Transport transport, long total) {
        int size = 256 * 1024;
        for (long at = 0; at < total; at += size) {
            transport.write(chunk(at, (int) Math.min(size, total - at)));
        }
    }

    /** Where {@link #writeBeyondTheKernel} gives up waiting for the kernel to refuse: far beyond any socket buffer. */
    static final long FILL_CAP = 256L << 20;

    /**
     * Writes the stream from its start, {@code atLeast} bytes and then 1 MiB more at a time, until
     * the kernel takes no more and the transport buffers the rest (loopback's buffers grow with
     * {@code net.ipv4.tcp_rmem}, up to tens of MiB on some machines, so no fixed size is enough);
     * returns how many bytes were written. All in one callback: a peer that reads nothing cannot
     * make room meanwhile.
     */
    static long writeBeyondTheKernel(Transport transport, long atLeast) {
        writeAll(transport, atLeast);
        long total = atLeast;
        while (transport.getWriteBufferSize() == 0 && total < FILL_CAP) {
            transport.write(chunk(total, 1 << 20));
            total += 1 << 20;
        }
        assertTrue(transport.getWriteBufferSize() > 0, "the kernel took all " + total + " bytes: nothing was left buffered");
        return total;
    }

    /** A client connection and the server's side of it, which reads nothing until resumed. */
    record Link(Server server, Connection<Sender> client, PausedReceiver peer) {
        /** Writes the stream from the client, at least {@code atLeast} bytes and more than the kernel takes; returns how many. */
        long fill(long atLeast) {
            return writeBeyondTheKernel(client.transport(), atLeast);
        }

        /** Lets the peer read; returns how many bytes it got before EOF, each checked. */
        long resumePeerUntilEof() {
            peer.transport.resumeReading();
            long got = Tasks.await(peer.eof);
            assertNull(peer.firstMismatch);
            return got;
        }
    }

    /** A server's protocol factory of paused receivers; {@code accepted} gets the first one connected. */
    static Supplier<Protocol> pausedReceivers(EventLoop loop, Future<PausedReceiver> accepted) {
        return () -> {
            PausedReceiver r = new PausedReceiver(loop);
            r.made.addDoneCallback(f -> {
                if (!accepted.isDone()) {
                    accepted.setResult(r);
                }
            });
            return r;
        };
    }

    /**
     * A peer that reads nothing until told to ({@code transport.resumeReading()}), then checks
     * every byte against the stream. Checks are recorded, not thrown: the loop would only log a
     * failure thrown from dataReceived, so the test asserts on {@link #firstMismatch} afterwards.
     */
    static final class PausedReceiver implements Protocol {
        final Future<PausedReceiver> made;
        final Future<Long> eof;
        final Future<Throwable> lost;
        Transport transport;
        long received;
        String firstMismatch;
        /** What eofReceived answers: true keeps this side's writing open after the peer's EOF. */
        boolean keepOpenOnEof;

        PausedReceiver(EventLoop loop) {
            made = loop.createFuture();
            eof = loop.createFuture();
            lost = loop.createFuture();
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
            transport.pauseReading();
            made.setResult(this);
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            while (data.hasRemaining()) {
                byte b = data.get();
                if (firstMismatch == null && b != byteAt(received)) {
                    firstMismatch = "byte " + received + " is " + b + ", the stream has " + byteAt(received) + " there";
                }
                received++;
            }
            if (eof.isDone() && firstMismatch == null) {
                firstMismatch = "data after EOF at byte " + received;
            }
        }

        @Override
        public boolean eofReceived() {
            eof.setResult(received);
            return keepOpenOnEof;
        }

        @Override
        public void connectionLost(Throwable exc) {
            if (!eof.isDone()) {
                eof.setResult(-1L); // the connection ended without an EOF
            }
            lost.setResult(exc);
        }
    }

    /** The writing side: counts the flow-control calls it gets, keeps what the peer answers. */
    static final class Sender implements Protocol {
        final Future<Throwable> lost;
        final StringBuilder answer = new StringBuilder();
        Transport transport;
        int pauses;
        int resumes;
        boolean paused;
        Runnable onResume = () -> { };

        Sender(EventLoop loop) {
            lost = loop.createFuture();
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void pauseWriting() {
            paused = true;
            pauses++;
        }

        @Override
        public void resumeWriting() {
            paused = false;
            resumes++;
            onResume.run();
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            answer.append(java.nio.charset.StandardCharsets.US_ASCII.decode(data));
        }

        @Override
        public void connectionLost(Throwable exc) {
            lost.setResult(exc);
        }
    }
}
