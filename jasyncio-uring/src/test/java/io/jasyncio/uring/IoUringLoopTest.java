package io.jasyncio.uring;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The io_uring loop's own behaviour on real pipes and threads: readiness is level-triggered
 * (unread data is reported again), interest changes cancel the old poll, a wake-up from
 * another thread ends a wait with no timeout, and timers fire near their delay.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IoUringLoopTest {

    @Test
    void theProviderIsListedAndMakesThisLoop() {
        assertTrue(EventLoops.availableNames().contains("io_uring"), EventLoops.availableNames().toString());
        EventLoop loop = EventLoops.newEventLoop("io_uring");
        try {
            assertEquals("io_uring", EventLoops.implementationOf(loop));
            UringLoops.pollerOf(loop); // and its backend is the ring
        } finally {
            loop.close();
        }
    }

    @Test
    void unreadDataIsReportedAgainUntilItIsRead() throws IOException {
        EventLoop loop = EventLoops.newEventLoop("io_uring");
        Pipe pipe = Pipe.open();
        try {
            pipe.source().configureBlocking(false);
            pipe.sink().write(ByteBuffer.wrap("abc".getBytes()));
            List<String> seen = new ArrayList<>();
            Future<Void> done = loop.createFuture();
            loop.addReader(pipe.source(), () -> {
                ByteBuffer one = ByteBuffer.allocate(1); // one byte per readiness: the rest must be reported again
                try {
                    pipe.source().read(one);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                seen.add(new String(one.array(), 0, one.position()));
                if (seen.size() == 3) {
                    loop.removeReader(pipe.source());
                    done.setResult(null);
                }
            });
            loop.runUntilComplete(done);
            assertEquals(List.of("a", "b", "c"), seen);
            assertEquals(0, UringLoops.pollerOf(loop).watchedCount());
        } finally {
            loop.close();
            pipe.source().close();
            pipe.sink().close();
        }
    }

    @Test
    void writerThenReaderOnOneChannelEachFire() throws IOException {
        EventLoop loop = EventLoops.newEventLoop("io_uring");
        Pipe pipe = Pipe.open();
        try {
            pipe.sink().configureBlocking(false);
            pipe.source().configureBlocking(false);
            Future<String> got = loop.createFuture();
            loop.addWriter(pipe.sink(), () -> {
                loop.removeWriter(pipe.sink());
                try {
                    pipe.sink().write(ByteBuffer.wrap("x".getBytes()));
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            loop.addReader(pipe.source(), () -> {
                ByteBuffer b = ByteBuffer.allocate(8);
                try {
                    pipe.source().read(b);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                loop.removeReader(pipe.source());
                got.setResult(new String(b.array(), 0, b.position()));
            });
            assertEquals("x", loop.runUntilComplete(got));
        } finally {
            loop.close();
            pipe.source().close();
            pipe.sink().close();
        }
    }

    @Test
    void anotherThreadWakesALoopWaitingWithNoTimeout() throws Exception {
        EventLoop loop = EventLoops.newEventLoop("io_uring");
        try {
            Future<Long> woke = loop.createFuture();
            long start = System.nanoTime();
            Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
                loop.callSoonThreadsafe(() -> woke.setResult(System.nanoTime() - start));
            });
            long took = loop.runUntilComplete(woke);
            assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(90) && took < TimeUnit.SECONDS.toNanos(10), "took " + took);
            for (int i = 0; i < 100; i++) { // many wake-ups in a row: each is seen, none is lost
                Future<Integer> next = loop.createFuture();
                int n = i;
                Thread.ofPlatform().start(() -> loop.callSoonThreadsafe(() -> next.setResult(n)));
                assertEquals(n, loop.runUntilComplete(next));
            }
        } finally {
            loop.close();
        }
    }

    @Test
    void aChannelClosedWhileWatchedIsReleasedSoTheSocketReallyCloses() throws Exception {
        EventLoop loop = EventLoops.newEventLoop("io_uring");
        try (java.net.ServerSocket listener = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             java.nio.channels.SocketChannel ours = java.nio.channels.SocketChannel.open(listener.getLocalSocketAddress());
             java.net.Socket peer = listener.accept()) {
            ours.configureBlocking(false);
            loop.addReader(ours, () -> { });
            loop.runUntilComplete(spin(loop, 1)); // the poll is armed in the kernel now
            ours.close(); // closed without removeReader: the armed poll still holds the socket's file
            loop.runUntilComplete(spin(loop, 2 * IoUringPoller.SWEEP_EVERY)); // the sweep cancels the poll
            peer.setSoTimeout(5_000);
            assertEquals(-1, peer.getInputStream().read(), "the peer must see the close (EOF)");
            assertEquals(0, UringLoops.pollerOf(loop).watchedCount());
        } finally {
            loop.close();
        }
    }

    /** A future done after {@code iterations} loop iterations. */
    private static Future<Void> spin(EventLoop loop, int iterations) {
        Future<Void> done = loop.createFuture();
        Runnable[] step = new Runnable[1];
        int[] left = {iterations};
        step[0] = () -> {
            if (--left[0] <= 0) {
                done.setResult(null);
            } else {
                loop.callSoon(step[0]);
            }
        };
        loop.callSoon(step[0]);
        return done;
    }

    @Test
    void aTimerFiresNearItsDelay() {
        EventLoop loop = EventLoops.newEventLoop("io_uring");
        try {
            Future<Long> fired = loop.createFuture();
            long start = System.nanoTime();
            loop.callLater(0.05, () -> fired.setResult(System.nanoTime() - start));
            long took = loop.runUntilComplete(fired);
            assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(45), "early: " + took);
        } finally {
            loop.close();
        }
    }
}
