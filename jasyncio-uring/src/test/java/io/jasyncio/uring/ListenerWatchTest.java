package io.jasyncio.uring;

import io.jasyncio.loop.spi.Poller;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A listener the io_uring poller watches stops listening the moment it is no longer watched and
 * closed, or closed while watched, even on a thread other than the one that runs the loop (the
 * portable task engine's coroutines; the loop's thread meanwhile idle in user space, so no task
 * work of its runs), in every task-run mode. A ring poll would hold the listener's file until that
 * thread next entered the ring, completing handshakes it then resets.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenerWatchTest {

    @ParameterizedTest
    @EnumSource(TaskRunMode.class)
    void aListenerUnwatchedAndClosedOnAnotherThreadRefusesAtOnce(TaskRunMode mode) throws Exception {
        checkRefusedAfter(mode, (poller, registration) -> {
            poller.setInterest(registration, 0);
            registration.channel().close();
        });
    }

    @ParameterizedTest
    @EnumSource(TaskRunMode.class)
    void aListenerClosedWhileWatchedOnAnotherThreadRefusesAtOnce(TaskRunMode mode) throws Exception {
        checkRefusedAfter(mode, (poller, registration) -> registration.channel().close());
    }

    /** Accepting paused (an EMFILE backoff) and resumed: the listener kept listening, and is reported again. */
    @ParameterizedTest
    @EnumSource(TaskRunMode.class)
    void aPausedListenerKeepsItsBacklogAndIsReportedOnceResumed(TaskRunMode mode) throws Exception {
        IoUringPoller poller = new IoUringPoller(mode);
        try (ServerSocketChannel listener = listener()) {
            IoUringPoller.Watch registration = poller.newRegistration(listener);
            poller.setInterest(registration, Poller.READ);
            assertEquals(List.of(), select(poller, 0));
            onAnotherThread(() -> poller.setInterest(registration, 0));
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port(listener))) {
                assertEquals(List.of(), select(poller, 0), "a paused listener is not reported");
                onAnotherThread(() -> poller.setInterest(registration, Poller.READ));
                assertEquals(List.of(Poller.READ), select(poller, -1));
                assertEquals(List.of(Poller.READ), select(poller, 0), "level-triggered: reported until accepted");
                listener.accept().close();
                assertEquals(List.of(), select(poller, 0));
            }
        } finally {
            poller.close();
        }
    }

    private interface PollerStep {
        void run(IoUringPoller poller, IoUringPoller.Watch registration) throws IOException;
    }

    private static void checkRefusedAfter(TaskRunMode mode, PollerStep closing) throws Exception {
        IoUringPoller poller = new IoUringPoller(mode);
        try (ServerSocketChannel listener = listener()) {
            int port = port(listener);
            IoUringPoller.Watch registration = poller.newRegistration(listener);
            poller.setInterest(registration, Poller.READ);
            select(poller, 0); // this thread enters the ring: the watch is armed for real
            onAnotherThread(() -> {
                closing.run(poller, registration);
                assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
            });
        } finally {
            poller.close();
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs {@code step} on a new thread and waits for it, rethrowing what it threw. */
    private static void onAnotherThread(Step step) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                step.run();
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        try {
            done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw assertInstanceOf(Exception.class, e.getCause());
        }
    }

    private static List<Integer> select(IoUringPoller poller, long timeoutNanos) throws IOException {
        List<Integer> ops = new ArrayList<>();
        poller.select(timeoutNanos, (registration, readyOps) -> ops.add(readyOps));
        return ops;
    }

    private static ServerSocketChannel listener() throws IOException {
        return ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    private static int port(ServerSocketChannel listener) throws IOException {
        return ((InetSocketAddress) listener.getLocalAddress()).getPort();
    }
}
