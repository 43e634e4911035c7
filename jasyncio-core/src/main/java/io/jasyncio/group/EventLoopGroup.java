package io.jasyncio.group;

import io.jasyncio.interop.ThreadsafeCoroutines;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.GatheringFuture;
import io.jasyncio.task.Task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N event loops, each running forever on a platform thread of its own, as Netty's
 * {@code MultiThreadIoEventLoopGroup}: {@link #next()} picks one round-robin, and work reaches a
 * loop only through {@code callSoonThreadsafe} ({@link #submit} is {@code runCoroutineThreadsafe}
 * on the next loop). A loop's state stays single-threaded: what runs on a loop touches that
 * loop's objects only, and hands anything meant for another loop over with
 * {@code callSoonThreadsafe}.
 *
 * <p>{@link #shutdownGracefully(Duration, Duration)} is Netty's: the group keeps running until no
 * work was submitted to it for the quiet period (or the timeout passed), then each loop cancels
 * its remaining tasks (they get until the timeout to finish their cleanup), closes, and its thread
 * ends; {@link #terminationFuture()} completes when every thread has.
 */
public final class EventLoopGroup implements AutoCloseable {
    private static final AtomicInteger GROUPS = new AtomicInteger();

    /** One loop, its thread, and what its shutdown needs. */
    private static final class Member {
        final EventLoop loop;
        Thread thread;
        /** Loop thread only: the loop stopped; tasks submitted from now on are refused. */
        boolean finishing;
        /** Guarded by this: no submission may enter the loop's queue any more. */
        boolean closed;

        Member(EventLoop loop) {
            this.loop = loop;
        }
    }

    private final List<Member> members = new ArrayList<>();
    private final List<EventLoop> loops;
    private final AtomicInteger nextIndex = new AtomicInteger();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private final AtomicInteger running = new AtomicInteger();
    private volatile long lastActivityNanos = System.nanoTime();
    private volatile boolean shuttingDown;
    private long quietNanos;
    private long deadlineNanos;

    /** One loop per available processor, of the default implementation. */
    public EventLoopGroup() {
        this(Runtime.getRuntime().availableProcessors(), null);
    }

    public EventLoopGroup(int size) {
        this(size, null);
    }

    /** {@code size} loops of the implementation named {@code loopName} (null: the default), started. */
    public EventLoopGroup(int size, String loopName) {
        if (size < 1) {
            throw new IllegalArgumentException("a group needs at least one loop, not " + size);
        }
        int group = GROUPS.incrementAndGet();
        CountDownLatch started = new CountDownLatch(size);
        for (int i = 0; i < size; i++) {
            EventLoop loop = loopName == null ? EventLoops.newEventLoop() : EventLoops.newEventLoop(loopName);
            Member m = new Member(loop);
            members.add(m);
            loop.callSoon(started::countDown);
            running.incrementAndGet();
            m.thread = Thread.ofPlatform().name("jasyncio-group-" + group + "-loop-" + i).start(() -> runMember(m));
        }
        loops = members.stream().map(m -> m.loop).toList();
        try {
            if (!started.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the group's loops did not start within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the group's loops started", e);
        }
    }

    /** The loops, in a fixed order. */
    public List<EventLoop> loops() {
        return loops;
    }

    public int size() {
        return loops.size();
    }

    /** The next loop, round-robin. */
    public EventLoop next() {
        return loops.get(Math.floorMod(nextIndex.getAndIncrement(), loops.size()));
    }

    /**
     * Runs {@code body} as a task on the next loop; the future completes with its outcome, and
     * cancelling it cancels the task. After shutdown, fails with {@link RejectedExecutionException}.
     */
    public <T> CompletableFuture<T> submit(Coroutine<T> body) {
        return submit(members.get(Math.floorMod(nextIndex.getAndIncrement(), members.size())), body);
    }

    /** As {@link #submit(Coroutine)}, on {@code loop} (one of this group's). */
    public <T> CompletableFuture<T> submit(EventLoop loop, Coroutine<T> body) {
        return submit(memberOf(loop), body);
    }

    private <T> CompletableFuture<T> submit(Member m, Coroutine<T> body) {
        lastActivityNanos = System.nanoTime();
        synchronized (m) {
            if (m.closed) {
                return CompletableFuture.failedFuture(new RejectedExecutionException("the event loop group is shut down"));
            }
            CompletableFuture<T> outcome = new CompletableFuture<>();
            m.loop.callSoonThreadsafe(() -> {
                if (m.finishing) {
                    outcome.completeExceptionally(new RejectedExecutionException("the event loop group is shutting down"));
                } else {
                    ThreadsafeCoroutines.start(m.loop, body, outcome);
                }
            });
            return outcome;
        }
    }

    private Member memberOf(EventLoop loop) {
        for (Member m : members) {
            if (m.loop == loop) {
                return m;
            }
        }
        throw new IllegalArgumentException(loop + " is not a loop of this group");
    }

    /** Netty's defaults: a quiet period of 2 s, a timeout of 15 s. */
    public CompletableFuture<Void> shutdownGracefully() {
        return shutdownGracefully(Duration.ofSeconds(2), Duration.ofSeconds(15));
    }

    /**
     * Shuts the group down once nothing was submitted to it for {@code quietPeriod}, or at
     * {@code timeout} at the latest; returns {@link #terminationFuture()}. Calling it again changes
     * nothing.
     */
    public synchronized CompletableFuture<Void> shutdownGracefully(Duration quietPeriod, Duration timeout) {
        if (quietPeriod.compareTo(timeout) > 0) {
            throw new IllegalArgumentException("the quiet period " + quietPeriod + " is longer than the timeout " + timeout);
        }
        if (shuttingDown) {
            return terminated;
        }
        quietNanos = quietPeriod.toNanos();
        deadlineNanos = System.nanoTime() + timeout.toNanos();
        shuttingDown = true;
        for (Member m : members) {
            m.loop.callSoonThreadsafe(() -> stopWhenQuiet(m));
        }
        return terminated;
    }

    public boolean isShuttingDown() {
        return shuttingDown;
    }

    /** Completes when every loop of the group is closed and its thread done. */
    public CompletableFuture<Void> terminationFuture() {
        return terminated;
    }

    /** Shuts down with no quiet period (15 s timeout) and waits for it. */
    @Override
    public void close() {
        shutdownGracefully(Duration.ZERO, Duration.ofSeconds(15)).join();
    }

    /** Loop thread: stops the loop once the group has been quiet long enough, or at the deadline. */
    private void stopWhenQuiet(Member m) {
        long now = System.nanoTime();
        long quietLeft = lastActivityNanos + quietNanos - now;
        long timeLeft = deadlineNanos - now;
        if (quietLeft <= 0 || timeLeft <= 0) {
            m.finishing = true;
            m.loop.stop();
            return;
        }
        m.loop.callLater(Math.min(quietLeft, timeLeft) / 1e9, () -> stopWhenQuiet(m));
    }

    /** The thread of one loop: run until shut down, then cancel what is left and close. */
    private void runMember(Member m) {
        try {
            m.loop.runForever();
            cancelRemainingTasks(m.loop);
            synchronized (m) {
                m.closed = true;
            }
            drainLastSubmissions(m.loop);
        } catch (Throwable t) {
            terminated.completeExceptionally(t);
        } finally {
            synchronized (m) {
                m.closed = true;
            }
            if (!m.loop.isRunning()) {
                m.loop.close();
            }
            if (running.decrementAndGet() == 0) {
                terminated.complete(null);
            }
        }
    }

    /** As {@code Runner.close}: cancel every pending task and let them finish, until the deadline. */
    private void cancelRemainingTasks(EventLoop loop) {
        List<Task<?>> pending = List.copyOf(Task.allTasks(loop));
        if (pending.isEmpty()) {
            return;
        }
        pending.forEach(Task::cancel);
        Future<Void> settled = loop.createFuture();
        GatheringFuture.gather(true, pending).addDoneCallback(g -> settle(settled));
        loop.callAtNanos(deadlineNanos, () -> settle(settled));
        loop.runUntilComplete(settled);
    }

    /** One more turn, so that a submission queued just before the group closed is refused rather than lost. */
    private static void drainLastSubmissions(EventLoop loop) {
        Future<Void> turned = loop.createFuture();
        loop.callSoon(() -> settle(turned));
        loop.runUntilComplete(turned);
    }

    private static void settle(Future<Void> f) {
        if (!f.isDone()) {
            f.setResult(null);
        }
    }

    @Override
    public String toString() {
        return "<EventLoopGroup loops=" + loops.size() + (shuttingDown ? " shutting down" : "") + ">";
    }
}
