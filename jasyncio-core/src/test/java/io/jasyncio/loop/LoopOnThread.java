package io.jasyncio.loop;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Test helper: a loop running forever on its own platform thread, stopped and closed on close(). */
final class LoopOnThread implements AutoCloseable {
    final EventLoop loop = EventLoops.newEventLoop();
    final Thread thread;
    private final CountDownLatch started = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    LoopOnThread() throws InterruptedException {
        this(null);
    }

    /** A loop watched by {@code observer} (null: none) from its first iteration. */
    LoopOnThread(LoopObserver observer) throws InterruptedException {
        loop.setObserver(observer);
        // A daemon: a loop a broken wake-up left asleep fails its test, and does not keep the JVM up.
        thread = Thread.ofPlatform().name("test-loop").daemon(true).start(() -> {
            try {
                loop.callSoon(started::countDown);
                loop.runForever();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        if (!started.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the loop did not start");
        }
    }

    /** Stops the loop from this (foreign) thread and waits for runForever to return. */
    void stopAndJoin(Duration patience) throws InterruptedException {
        loop.callSoonThreadsafe(loop::stop);
        if (!thread.join(patience)) {
            throw new AssertionError("the loop did not stop within " + patience);
        }
        if (failure.get() != null) {
            throw new AssertionError("the loop failed", failure.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (thread.isAlive()) {
            stopAndJoin(Duration.ofSeconds(2));
        }
        loop.close();
    }
}
