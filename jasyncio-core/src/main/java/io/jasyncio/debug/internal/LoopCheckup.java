package io.jasyncio.debug.internal;

import io.jasyncio.debug.BlockedLoopReport;
import io.jasyncio.debug.CompositeObserver;
import io.jasyncio.debug.LoopStats;
import io.jasyncio.debug.SlowCallbackEvents;
import io.jasyncio.debug.Watchdog;
import io.jasyncio.loop.DefaultExecutor;
import io.jasyncio.loop.EagerSteps;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.ExceptionHandler;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.task.Task;

import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The doctor's watch over one loop: {@link LoopStats} for the counts, a {@link Watchdog} for the
 * stack of a held loop, and an observer of its own for what those two do not see: slow steps
 * with the task's awaits that did not yield, timer-heap purges, the cancelled share of the heap,
 * a heartbeat (a callback posted from outside and timed until it runs: the loop's lag), the
 * creators of the timers that get cancelled ({@link TimerCreators}, sampled), and the
 * reports its exception handler receives. Everything is written to the {@link DoctorLog}; the
 * loop-side cost is the observed drain plus a few field writes per handle.
 */
final class LoopCheckup implements LoopObserver {
    /** A handle running this long is a slow step (asyncio's slow-callback default). */
    static final long SLOW_NANOS = 100_000_000L;

    final int id;
    final EventLoop loop;
    final LoopStats stats;
    private final DoctorLog log; // null: JFR samples only
    private final Watchdog watchdog;
    private final Runnable probe = this::probeRan;
    private final ExceptionHandler recorder = this::exceptionReported;
    private ExceptionHandler userHandler;

    // Loop thread only.
    private boolean purgeDue;
    private int purgeHeap;
    private int purgeCancelled;
    private long purgeFrom;

    // Written by the loop thread, read (and reset) by the sampler: a lost update only blurs a sample.
    volatile String threadName = "";
    /** Handles started so far: joins a slow step to the watchdog's stack of it. */
    volatile long step;
    volatile int readyMax;
    volatile int peakHeap;
    volatile int peakCancelled;
    volatile double lagMaxMillis;
    volatile int pendingTasks;
    volatile long tasksCreated;
    private final BusiestTasks busiest = new BusiestTasks();
    /** The eager task steps in the running handle (loop thread only). */
    private final EagerSteps eagerSteps = new EagerSteps();
    private final TimerCreators timerCreators = new TimerCreators();
    volatile long slowSteps;
    volatile double jfrLagMaxMillis;

    private final java.util.concurrent.atomic.AtomicBoolean finished = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile long probePostedAt; // 0: no probe waiting to run
    private volatile boolean probeStale;

    LoopCheckup(int id, EventLoop loop, DoctorLog log) {
        this.id = id;
        this.loop = loop;
        this.log = log;
        this.stats = LoopStats.install(loop);
        CompositeObserver.add(loop, this);
        this.watchdog = Watchdog.install(loop, SLOW_NANOS / 1e9, this::blocked, // one line out, the stack kept
                log != null ? "in the doctor's report" : "in the io.jasyncio.BlockedLoop JFR event");
        loop.setExceptionHandler(recorder);
    }

    // ---- the loop side ---------------------------------------------------------------------------

    @Override
    public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
        if (purgeDue) { // the iteration began by rebuilding the heap without its cancelled timers
            purgeDue = false;
            write("purge", id, purgeCancelled, purgeHeap, String.format(java.util.Locale.ROOT, "%.2f",
                    (System.nanoTime() - purgeFrom) / 1e6));
        }
    }

    @Override
    public void handleStarting(Handle handle, long startNanos) {
        step++; // single writer: the loop thread
    }

    @Override
    public void beforeDrain(int timersMoved, int ntodo) {
        if (ntodo > readyMax) {
            readyMax = ntodo;
        }
    }

    @Override
    public void eagerStepFinished(Handle eagerStep, long nanos) {
        eagerSteps.add(eagerStep, nanos);
        Task<?> task = Task.steppedBy(eagerStep);
        if (task != null) {
            busiest.stepped(task, nanos);
        }
    }

    @Override
    public void handleFinished(Handle handle, long nanos) {
        try {
            handleFinished(handle, nanos, eagerSteps);
        } finally {
            eagerSteps.clear();
        }
    }

    /**
     * A handle's time goes to the eager task steps that ran in it (counted as they ended) and the
     * rest to the handle's own task; a slow handle is recorded under the task of its longest eager
     * step if one ran (the handler a read callback started), else under its own task, if any.
     */
    private void handleFinished(Handle handle, long nanos, EagerSteps inside) {
        Task<?> task = Task.steppedBy(handle);
        if (task != null) {
            busiest.stepped(task, nanos - inside.totalNanos());
        }
        if (nanos < SLOW_NANOS) {
            return;
        }
        slowSteps++;
        Task<?> holder = inside.longest() != null ? Task.steppedBy(inside.longest()) : task;
        String name = holder != null ? holder.getName() : "(a callback)";
        int awaits = holder != null ? holder.awaitsWithoutSuspendingInStep() : 0;
        write("slow", id, String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6), awaits, name,
                handle.describeForReport(), step); // the handle alone: the lab joins it to the watchdog's record
        try {
            SlowCallbackEvents.commit(handle, nanos, inside); // the hold's whole length, for top: the watchdog saw it part-way
        } catch (LinkageError noJfrInThisRuntime) {
            // a runtime image without jdk.jfr: the record above is enough
        }
    }

    @Override
    public void iterationFinished() {
        int heap = loop.scheduledTimerCount();
        int cancelled = loop.cancelledTimerCount();
        if (heap > 100 && (peakHeap == 0 || (long) cancelled * peakHeap > (long) peakCancelled * heap)) { // a larger cancelled share
            peakHeap = heap;
            peakCancelled = cancelled;
        }
        if (heap > 100 && cancelled > heap / 2) { // asyncio's rule: the next iteration purges
            purgeDue = true;
            purgeHeap = heap;
            purgeCancelled = cancelled;
            purgeFrom = System.nanoTime();
        }
    }

    @Override
    public void timerScheduled(TimerHandle timer) {
        timerCreators.scheduled(timer);
    }

    private void probeRan() {
        timerCreators.settle(loop.time());
        long posted = probePostedAt;
        probePostedAt = 0;
        threadName = Thread.currentThread().getName();
        pendingTasks = Task.allTasks(loop).size();
        tasksCreated = Task.createdCount(loop);
        busiest.reportIfDue(id, threadName);
        if (loop.getExceptionHandler() != recorder) { // the program set its own: record, then pass on
            userHandler = loop.getExceptionHandler();
            loop.setExceptionHandler(recorder);
        }
        if (probeStale || posted == 0) {
            probeStale = false; // posted before the loop stopped: its wait says nothing about lag
            return;
        }
        double lag = (System.nanoTime() - posted) / 1e6;
        lagMaxMillis = Math.max(lagMaxMillis, lag);
        jfrLagMaxMillis = Math.max(jfrLagMaxMillis, lag);
        write("beat", id, String.format(java.util.Locale.ROOT, "%.2f", lag));
    }

    private void exceptionReported(EventLoop l, Map<String, Object> context) {
        Object exception = context.get("exception");
        write("error", id, String.valueOf(context.getOrDefault("message", "")),
                exception instanceof Throwable t ? t.toString() : "");
        if (userHandler != null) {
            userHandler.handle(l, context);
        } else {
            l.defaultExceptionHandler(context);
        }
    }

    // ---- the sampler side ------------------------------------------------------------------------

    /** Posts a heartbeat unless one is still waiting (then the loop is held, and the wait grows). */
    void postProbe() {
        if (!loop.isRunning()) {
            if (probePostedAt != 0) {
                probeStale = true;
            }
            return;
        }
        if (probePostedAt != 0 || loop.isClosed()) {
            return;
        }
        probePostedAt = System.nanoTime();
        try {
            loop.callSoonThreadsafe(probe);
        } catch (RuntimeException closedMeanwhile) {
            probePostedAt = 0;
        }
    }

    /** Writes one sample line and starts the next interval. */
    void sample() {
        Thread thread = loop.thread();
        if (thread != null) {
            threadName = thread.getName();
        }
        LoopStats.Snapshot s = stats.snapshot();
        int[] executor = executorQueue();
        write("sample", id, s.iterations(), s.selectNanos(), s.callbackNanos(), readyMax, s.timersInHeap(),
                s.cancelledTimersInHeap(), peakHeap, peakCancelled, pendingTasks, executor[0], executor[1],
                String.format(java.util.Locale.ROOT, "%.2f", lagMaxMillis), threadName);
        readyMax = 0;
        peakHeap = 0;
        peakCancelled = 0;
        lagMaxMillis = 0;
    }

    /** The default executor's queued and running jobs (0, 0 when there is none). */
    int[] executorQueue() {
        Executor executor = DefaultExecutor.ifCreated(loop);
        if (executor instanceof ThreadPoolExecutor pool) {
            return new int[]{pool.getQueue().size(), pool.getActiveCount()};
        }
        return new int[]{0, 0};
    }

    /** The totals, once: when the loop closed or the program ends. */
    void finish() {
        if (finished.getAndSet(true)) {
            return;
        }
        watchdog.close();
        LoopStats.Snapshot s = stats.snapshot();
        long scheduled = loop.timersScheduledTotal();
        long cancelled = loop.timersCancelledTotal();
        writeTimerCreators();
        write("total", id, threadName, s.iterations(), s.selectNanos(), s.callbackNanos(), s.handlesRun(),
                s.readyMax(), scheduled, cancelled, s.timersFired(), s.lagP50Nanos(), s.lagP99Nanos(),
                s.lagMaxNanos(), slowSteps);
    }

    /** One line per creator of sampled timers: how many it scheduled and how many of those were cancelled. */
    private void writeTimerCreators() {
        if (loop.thread() == Thread.currentThread()) {
            timerCreators.settle(loop.time());
        }
        Map<String, TimerCreators.Counts> counts;
        try {
            counts = new java.util.HashMap<>(timerCreators.counts()); // off the loop thread (a shutdown hook): a copy may race
        } catch (java.util.ConcurrentModificationException raced) {
            return;
        }
        counts.forEach((creator, c) -> write("timers", id, creator, c.scheduled, c.cancelled,
                TimerCreators.SAMPLE_EVERY));
    }

    private void blocked(BlockedLoopReport report) {
        long during = step; // the step still running (or, rarely, the next: the reader checks the handle)
        StackTraceElement frame = report.blockingFrame();
        StringBuilder stack = new StringBuilder();
        for (int i = 0; i < Math.min(40, report.stack().size()); i++) {
            stack.append(i == 0 ? "" : "\n").append(report.stack().get(i));
        }
        write("watchdog", id, String.format(java.util.Locale.ROOT, "%.1f", report.blockedNanos() / 1e6),
                frame != null ? frame : "", report.handle(), stack, during);
    }

    private void write(String kind, Object... fields) {
        if (log != null) {
            log.write(kind, fields);
        }
    }
}
