package io.jasyncio.debug.management;

import io.jasyncio.debug.LoopStats;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.Task;

import java.lang.ref.WeakReference;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** One loop's {@link EventLoopMXBean}: readings taken on the loop's thread, at most every 100 ms. */
final class EventLoopBean implements EventLoopMXBean {
    private static final long FRESH_NANOS = 100_000_000L;
    private static final long ANSWER_MILLIS = 200;

    private final int id;
    private final String loopClass;
    /** Weakly: a loop nobody closed and nobody references is collected, bean or not. */
    private final WeakReference<EventLoop> loop;
    /** Installed at the first reading, on the loop's thread; weakly, as it names the loop. */
    private volatile WeakReference<LoopStats> stats;
    private volatile long countingSince;
    private volatile Reading last = Reading.NONE;
    private volatile long lastAt = Long.MIN_VALUE / 2;
    private volatile long unanswered;

    /** Everything read at one moment on the loop's thread. */
    private record Reading(String thread, LoopStats.Snapshot stats, int ready, int timers, int cancelled,
                           long tasksCreated, int tasksPending) {
        static final Reading NONE = new Reading("", null, 0, 0, 0, 0, 0);
    }

    EventLoopBean(int id, EventLoop loop) {
        this.id = id;
        this.loopClass = EventLoops.implementationOf(loop); // the provider's name: every loop is of one class
        this.loop = new WeakReference<>(loop);
    }

    /** True once the loop was collected without being closed: the bean is stale. */
    boolean loopCollected() {
        return loop.refersTo(null);
    }

    private Reading reading() {
        EventLoop loop = this.loop.get();
        if (loop == null || System.nanoTime() - lastAt < FRESH_NANOS || loop.isClosed()) {
            return last;
        }
        CountDownLatch answered = new CountDownLatch(1);
        try {
            loop.callSoonThreadsafe(() -> {
                read(loop);
                answered.countDown();
            });
            if (!answered.await(ANSWER_MILLIS, TimeUnit.MILLISECONDS)) {
                unanswered++; // held, or not running: the last reading stands
            }
        } catch (IllegalStateException closed) {
            // closed meanwhile
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return last;
    }

    /** On the loop's thread. */
    private void read(EventLoop loop) {
        LoopStats counting = stats != null ? stats.get() : null;
        if (counting == null) {
            counting = LoopStats.install(loop);
            stats = new WeakReference<>(counting);
            countingSince = System.currentTimeMillis();
        }
        last = new Reading(Thread.currentThread().getName(), counting.snapshot(), loop.readyCount(),
                loop.scheduledTimerCount(), loop.cancelledTimerCount(), Task.createdCount(loop), Task.pendingCount(loop));
        lastAt = System.nanoTime();
    }

    private LoopStats.Snapshot stats() {
        LoopStats.Snapshot s = reading().stats();
        return s != null ? s : new LoopStats.Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    @Override
    public int getId() {
        return id;
    }

    @Override
    public String getLoopClass() {
        return loopClass;
    }

    @Override
    public String getThread() {
        EventLoop l = loop.get();
        Thread t = l != null ? l.thread() : null;
        return t != null ? t.getName() : reading().thread();
    }

    @Override
    public boolean isRunning() {
        EventLoop l = loop.get();
        return l != null && l.isRunning();
    }

    @Override
    public long getCountingSinceMillis() {
        reading();
        return countingSince;
    }

    @Override
    public long getIterations() {
        return stats().iterations();
    }

    @Override
    public long getCallbacksRun() {
        return stats().handlesRun();
    }

    @Override
    public long getSlowCallbacks() {
        return stats().slowCallbacks();
    }

    @Override
    public double getSelectSeconds() {
        return stats().selectNanos() / 1e9;
    }

    @Override
    public double getCallbackSeconds() {
        return stats().callbackNanos() / 1e9;
    }

    @Override
    public int getReadyQueueDepth() {
        return reading().ready();
    }

    @Override
    public int getReadyQueueMax() {
        return stats().readyMax();
    }

    @Override
    public int getTimersInHeap() {
        return reading().timers();
    }

    @Override
    public int getCancelledTimersInHeap() {
        return reading().cancelled();
    }

    @Override
    public long getLagSamples() {
        return stats().lagSamples();
    }

    @Override
    public double getLagP50Millis() {
        return stats().lagP50Nanos() / 1e6;
    }

    @Override
    public double getLagP90Millis() {
        return stats().lagP90Nanos() / 1e6;
    }

    @Override
    public double getLagP99Millis() {
        return stats().lagP99Nanos() / 1e6;
    }

    @Override
    public double getLagMaxMillis() {
        return stats().lagMaxNanos() / 1e6;
    }

    @Override
    public long getTasksCreated() {
        return reading().tasksCreated();
    }

    @Override
    public int getTasksPending() {
        return reading().tasksPending();
    }

    @Override
    public long getTasksDone() {
        Reading r = reading();
        return r.tasksCreated() - r.tasksPending();
    }

    @Override
    public long getUnansweredReadings() {
        return unanswered;
    }
}
