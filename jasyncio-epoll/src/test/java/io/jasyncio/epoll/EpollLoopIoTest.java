package io.jasyncio.epoll;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.spi.ChannelFds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Readers and writers on the epoll loop: pipes, loopback sockets, many channels, fd reuse. */
@Timeout(20)
class EpollLoopIoTest {
    private EventLoop loop;

    @BeforeEach
    void open() {
        assertTrue(EventLoops.availableNames().contains("epoll"),
                "epoll must be available on Linux with the project's JVM flags: " + new EpollEventLoopProvider().unavailableReason());
        loop = EventLoops.newEventLoop("epoll");
        assertEquals("epoll", EventLoops.implementationOf(loop));
    }

    @AfterEach
    void close() {
        loop.close();
    }

    private EpollPoller poller() {
        return assertInstanceOf(EpollPoller.class, LoopContract.of(loop).backendFeature(EpollPoller.class));
    }

    /** Runs until {@code done} completes, failing (instead of hanging) after 10 s. */
    private <T> T runUntil(Future<T> done) {
        loop.callLater(10, () -> {
            if (!done.isDone()) {
                done.setException(new AssertionError("timed out"));
            }
        });
        return loop.runUntilComplete(done);
    }

    private static int write(java.nio.channels.WritableByteChannel ch, String text) {
        try {
            return ch.write(ByteBuffer.wrap(text.getBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readAvailable(java.nio.channels.ReadableByteChannel ch) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(256);
            int n = ch.read(buf);
            return n <= 0 ? "" : new String(buf.array(), 0, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void pipeReaderSeesWhatIsWrittenThenStopsWhenRemoved() throws IOException {
        Pipe pipe = Pipe.open();
        try (var source = pipe.source(); var sink = pipe.sink()) {
            Future<String> got = loop.createFuture();
            loop.addReader(source, () -> {
                got.setResult(readAvailable(source));
                assertTrue(loop.removeReader(source));
            });
            loop.callSoon(() -> write(sink, "hello"));
            assertEquals("hello", runUntil(got));
            assertFalse(loop.removeReader(source), "already removed");
            assertEquals(0, poller().watchedCount());
        }
    }

    @Test
    void readerDoesNotFireWithoutData() throws IOException {
        Pipe pipe = Pipe.open();
        try (var source = pipe.source(); var sink = pipe.sink()) {
            int[] calls = {0};
            loop.addReader(source, () -> calls[0]++);
            Future<Void> later = loop.createFuture();
            loop.callLater(0.05, () -> later.setResult(null));
            runUntil(later);
            assertEquals(0, calls[0]);
            // Level-triggered: unread data keeps the reader firing at every iteration.
            write(sink, "x");
            Future<Void> thrice = loop.createFuture();
            loop.addReader(source, () -> {
                if (++calls[0] == 3) {
                    loop.removeReader(source);
                    thrice.setResult(null);
                }
            });
            runUntil(thrice);
            assertEquals(3, calls[0]);
        }
    }

    @Test
    void writerFiresOnAWritableSocketAndReaderAndWriterShareOneRegistration() throws IOException {
        try (var pair = SocketPair.open()) {
            Future<String> both = loop.createFuture();
            StringBuilder order = new StringBuilder();
            loop.addWriter(pair.a, () -> {
                order.append("w");
                loop.removeWriter(pair.a);
                write(pair.a, "ping");
            });
            loop.addReader(pair.b, () -> {
                order.append("r:").append(readAvailable(pair.b));
                loop.removeReader(pair.b);
                both.setResult(order.toString());
            });
            assertEquals(2, poller().watchedCount());
            assertEquals("wr:ping", runUntil(both));
            // Same channel, reader then writer: one registration, both callbacks.
            Future<String> same = loop.createFuture();
            StringBuilder seen = new StringBuilder();
            write(pair.b, "x");
            loop.addReader(pair.a, () -> {
                seen.append("r");
                readAvailable(pair.a);
                loop.removeReader(pair.a);
                if (seen.length() == 2) {
                    same.setResult(seen.toString());
                }
            });
            loop.addWriter(pair.a, () -> {
                seen.append("w");
                loop.removeWriter(pair.a);
                if (seen.length() == 2) {
                    same.setResult(seen.toString());
                }
            });
            assertEquals(1, poller().watchedCount());
            String s = runUntil(same);
            assertTrue(s.equals("rw") || s.equals("wr"), s);
            assertEquals(0, poller().watchedCount());
        }
    }

    @Test
    void pingPongOverLoopback() throws IOException {
        try (var pair = SocketPair.open()) {
            int rounds = 2000;
            int[] count = {0};
            Future<Integer> done = loop.createFuture();
            ByteBuffer buf = ByteBuffer.allocate(64);
            loop.addReader(pair.b, () -> echo(pair.b, buf));
            loop.addReader(pair.a, () -> {
                buf.clear();
                try {
                    pair.a.read(buf);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (++count[0] == rounds) {
                    loop.removeReader(pair.a);
                    loop.removeReader(pair.b);
                    done.setResult(count[0]);
                } else {
                    write(pair.a, "p");
                }
            });
            write(pair.a, "p");
            assertEquals(rounds, runUntil(done));
        }
    }

    private static void echo(SocketChannel ch, ByteBuffer buf) {
        try {
            buf.clear();
            ch.read(buf);
            buf.flip();
            ch.write(buf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void manyRegistrationsEachWakeOnlyItsOwnReader() throws IOException {
        int n = 150; // 300 fds, well under the usual 1024 soft limit
        List<Pipe> pipes = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                pipes.add(Pipe.open());
            }
            boolean[] fired = new boolean[n];
            int[] remaining = {n / 2};
            Future<Void> done = loop.createFuture();
            for (int i = 0; i < n; i++) {
                int index = i;
                Pipe.SourceChannel source = pipes.get(i).source();
                loop.addReader(source, () -> {
                    readAvailable(source);
                    loop.removeReader(source);
                    fired[index] = true;
                    if (--remaining[0] == 0) {
                        done.setResult(null);
                    }
                });
            }
            assertEquals(n, poller().watchedCount());
            for (int i = 0; i < n; i += 2) {
                write(pipes.get(i).sink(), "x");
            }
            runUntil(done);
            for (int i = 0; i < n; i++) {
                assertEquals(i % 2 == 0, fired[i], "reader " + i);
            }
            assertEquals(n / 2, poller().watchedCount());
        } finally {
            for (Pipe p : pipes) {
                loop.removeReader(p.source());
                p.source().close();
                p.sink().close();
            }
        }
        assertEquals(0, poller().watchedCount());
    }

    @Test
    void closingARegisteredChannelThenReusingItsFdWorks() throws IOException {
        Pipe old = Pipe.open();
        int[] oldCalls = {0};
        loop.addReader(old.source(), () -> oldCalls[0]++);
        int oldFd = ChannelFds.fdOf(old.source());
        // Closed behind the loop's back: the JDK releases the fd, epoll forgets it.
        old.source().close();
        old.sink().close();
        List<Pipe> fresh = new ArrayList<>();
        try {
            Pipe reused = null;
            for (int i = 0; i < 4 && reused == null; i++) {
                Pipe p = Pipe.open();
                fresh.add(p);
                if (ChannelFds.fdOf(p.source()) == oldFd) {
                    reused = p;
                }
            }
            assertTrue(reused != null, "the kernel hands out the lowest free fd, so the old number comes back");
            Pipe.SourceChannel source = reused.source();
            Future<String> got = loop.createFuture();
            loop.addReader(source, () -> {
                got.setResult(readAvailable(source));
                loop.removeReader(source);
            });
            write(reused.sink(), "new");
            assertEquals("new", runUntil(got));
            assertEquals(0, oldCalls[0], "the closed channel's reader never runs");
            assertFalse(loop.removeReader(old.source()), "the reused fd belongs to the new channel now");
            assertEquals(0, poller().watchedCount());
        } finally {
            for (Pipe p : fresh) {
                p.source().close();
                p.sink().close();
            }
        }
    }

    @Test
    void removingAfterCloseForgetsTheRegistration() throws IOException {
        Pipe pipe = Pipe.open();
        loop.addReader(pipe.source(), () -> { });
        loop.addWriter(pipe.sink(), () -> { });
        pipe.source().close();
        pipe.sink().close();
        assertTrue(loop.removeReader(pipe.source()));
        assertTrue(loop.removeWriter(pipe.sink()));
        assertEquals(0, poller().watchedCount());
        Future<Void> tick = loop.createFuture();
        loop.callLater(0.01, () -> tick.setResult(null));
        runUntil(tick); // the loop still runs fine
    }

    @Test
    void addingAReaderToAClosedChannelFails() throws IOException {
        Pipe pipe = Pipe.open();
        pipe.source().close();
        pipe.sink().close();
        UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(UncheckedIOException.class,
                () -> loop.addReader(pipe.source(), () -> { }));
        assertInstanceOf(java.nio.channels.ClosedChannelException.class, e.getCause());
    }

    /** Two connected loopback socket channels. */
    static final class SocketPair implements AutoCloseable {
        final SocketChannel a;
        final SocketChannel b;

        private SocketPair(SocketChannel a, SocketChannel b) {
            this.a = a;
            this.b = b;
        }

        static SocketPair open() throws IOException {
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel a = SocketChannel.open(server.getLocalAddress());
                SocketChannel b = server.accept();
                a.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                b.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                a.configureBlocking(false);
                b.configureBlocking(false);
                return new SocketPair(a, b);
            }
        }

        @Override
        public void close() throws IOException {
            a.close();
            b.close();
        }
    }
}
