package io.jasyncio.uring;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The ring's task-run modes ({@code -Djasyncio.uring.taskrun}): each one wakes on readiness and on
 * another thread's {@code callSoonThreadsafe}; a loop made on one thread runs on another; a
 * {@code defer} ring refuses a second thread clearly; a refused mode falls back to a weaker one.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TaskRunModeTest {

    @ParameterizedTest
    @EnumSource(TaskRunMode.class)
    void everyModeSeesReadinessAndWakesFromAnotherThread(TaskRunMode mode) throws Exception {
        EventLoop loop = UringLoops.newLoop(mode);
        Pipe pipe = Pipe.open();
        try {
            assumeTrue(UringLoops.pollerOf(loop).taskRunMode() == mode, "this kernel refused " + mode);
            pipe.source().configureBlocking(false);
            Future<String> read = loop.createFuture();
            loop.addReader(pipe.source(), () -> {
                ByteBuffer b = ByteBuffer.allocate(8);
                try {
                    pipe.source().read(b);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
                loop.removeReader(pipe.source());
                read.setResult(new String(b.array(), 0, b.position()));
            });
            Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50); // the loop is waiting in the ring by then
                    pipe.sink().write(ByteBuffer.wrap("hi".getBytes()));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            assertEquals("hi", loop.runUntilComplete(read));
            for (int i = 0; i < 50; i++) { // wake-ups from another thread while it waits with no timeout
                Future<Integer> next = loop.createFuture();
                int n = i;
                Thread.ofPlatform().start(() -> loop.callSoonThreadsafe(() -> next.setResult(n)));
                assertEquals(n, loop.runUntilComplete(next));
            }
        } finally {
            loop.close();
            pipe.source().close();
            pipe.sink().close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = TaskRunMode.class, names = {"OFF", "COOP"})
    void aLoopRunsFromOneThreadThenAnother(TaskRunMode mode) throws Exception {
        EventLoop loop = UringLoops.newLoop(mode); // made here, run on two other threads in turn
        ExecutorService first = Executors.newSingleThreadExecutor();
        ExecutorService second = Executors.newSingleThreadExecutor();
        try {
            assertEquals(1, first.submit(() -> runOnce(loop, 1)).get(10, TimeUnit.SECONDS));
            assertEquals(2, second.submit(() -> runOnce(loop, 2)).get(10, TimeUnit.SECONDS));
            assertEquals(3, first.submit(() -> runOnce(loop, 3)).get(10, TimeUnit.SECONDS));
        } finally {
            first.shutdownNow();
            second.shutdownNow();
            loop.close();
        }
    }

    @Test
    void aDeferRingBelongsToTheFirstThreadThatRunsItAndRefusesAnother() throws Exception {
        EventLoop loop = UringLoops.newLoop(TaskRunMode.DEFER); // made here: the ring is still disabled
        ExecutorService first = Executors.newSingleThreadExecutor(r -> new Thread(r, "first-runner"));
        ExecutorService second = Executors.newSingleThreadExecutor(r -> new Thread(r, "second-runner"));
        try {
            assumeTrue(UringLoops.pollerOf(loop).taskRunMode() == TaskRunMode.DEFER, "this kernel refused DEFER");
            assertEquals(1, first.submit(() -> runOnce(loop, 1)).get(10, TimeUnit.SECONDS));
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> {
                try {
                    second.submit(() -> runOnce(loop, 2)).get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw e.getCause();
                }
            });
            assertTrue(refused.getMessage().contains("first-runner") && refused.getMessage().contains("second-runner"),
                    refused.getMessage());
            assertEquals(3, first.submit(() -> runOnce(loop, 3)).get(10, TimeUnit.SECONDS)); // its thread still runs it
        } finally {
            first.shutdownNow();
            second.shutdownNow();
            loop.close();
        }
    }

    @Test
    void aModeTheKernelRefusesFallsBackToTheNextWeakerOne() throws Exception {
        int unknownFlag = 1 << 31; // no kernel knows it: io_uring_setup says EINVAL
        try (IoUring ring = new IoUring(8, TaskRunMode.DEFER, unknownFlag)) {
            assertEquals(TaskRunMode.COOP, ring.mode);
        }
        try (IoUring ring = new IoUring(8, TaskRunMode.COOP, unknownFlag)) {
            assertEquals(TaskRunMode.OFF, ring.mode);
        }
        IOException none = assertThrows(IOException.class, () -> new IoUring(8, TaskRunMode.OFF, unknownFlag).close());
        assertTrue(none.getMessage().contains("EINVAL"), none.getMessage());
    }

    @Test
    void thePropertyNamesTheMode() {
        String before = System.getProperty(TaskRunMode.PROPERTY);
        try {
            System.setProperty(TaskRunMode.PROPERTY, "Defer");
            assertEquals(TaskRunMode.DEFER, TaskRunMode.configured());
            System.setProperty(TaskRunMode.PROPERTY, "sometimes");
            assertThrows(IllegalArgumentException.class, TaskRunMode::configured);
        } finally {
            if (before == null) {
                System.clearProperty(TaskRunMode.PROPERTY);
            } else {
                System.setProperty(TaskRunMode.PROPERTY, before);
            }
        }
    }

    /** Runs {@code loop} on this thread until a callback scheduled with a short timer returns {@code value}. */
    private static int runOnce(EventLoop loop, int value) {
        Future<Integer> done = loop.createFuture();
        loop.callLater(0.01, () -> done.setResult(value));
        return loop.runUntilComplete(done);
    }
}
