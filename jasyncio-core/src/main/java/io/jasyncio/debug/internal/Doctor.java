package io.jasyncio.debug.internal;

import io.jasyncio.debug.LoopStats;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.CooperativeBudget;

import jdk.jfr.FlightRecorder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The doctor's half inside the program: with {@code -Djasyncio.doctor=FILE} every loop the
 * process creates is watched by a {@link LoopCheckup}, and what they see is written to FILE
 * (read back by {@code ./jasyncio doctor}); with {@code -Djasyncio.doctor=jfr} nothing is
 * written and the loops only show as {@link LoopSampleEvent}s, for {@code ./jasyncio top PID}.
 * Registered as an {@link EventLoops.CreationListener} service, loaded only when the property is
 * set: a program run without it pays nothing.
 *
 * <p>Records, one per line (see {@link DoctorLog}): {@code start pid java command},
 * {@code loop id class}, {@code sample id iterations selectNs callbackNs readyMax heap cancelled
 * peakHeap peakCancelled pendingTasks executorQueue executorActive lagMaxMs thread} every 250 ms,
 * {@code beat id lagMs} every heartbeat (50 ms), {@code slow id ms awaits task handle step} (the
 * task is the one whose eager step took longest in the handle if one ran, else the handle's own),
 * {@code watchdog id ms frame handle stack step}, {@code purge id removed heapBefore ms},
 * {@code error id message exception}, {@code stall ms} (the sampler thread itself woke this
 * late: the machine was busy), {@code total id thread iterations selectNs callbackNs
 * handles readyMax timersScheduled timersCancelled timersFired lagP50Ns lagP99Ns lagMaxNs slowSteps},
 * {@code end}.
 *
 * <p>To see how many awaits a slow step made without yielding, the doctor turns the cooperative
 * budget's counting on with a budget too large to ever spend, unless the program set one.
 */
public final class Doctor implements EventLoops.CreationListener {
    private static final long HEARTBEAT_NANOS = 50_000_000L;
    private static final int BEATS_PER_SAMPLE = 5;
    private static final long STALL_NANOS = 20_000_000L;

    /** Used by {@link java.util.ServiceLoader}; every instance reports to the one recording. */
    public Doctor() {
    }

    @Override
    public void loopCreated(EventLoop loop) {
        if (System.getProperty("jasyncio.doctor") == null) {
            return; // loaded for another listener's sake (the management beans)
        }
        Recording.INSTANCE.add(loop);
    }

    /** The process's one recording, started with the first loop. */
    private static final class Recording {
        static final Recording INSTANCE = new Recording(System.getProperty("jasyncio.doctor", "jfr"));

        private final DoctorLog log;
        private final List<LoopCheckup> loops = new CopyOnWriteArrayList<>();
        private final AtomicInteger ids = new AtomicInteger();

        private Recording(String target) {
            this.log = target.isEmpty() || target.equals("jfr") ? null : open(Path.of(target));
            if (log != null) {
                log.write("start", ProcessHandle.current().pid(), System.getProperty("java.version"),
                        System.getProperty("sun.java.command", ""));
            }
            Thread.ofPlatform().daemon().name("jasyncio-doctor").start(this::sampleForever);
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(this::finish));
        }

        private static DoctorLog open(Path file) {
            try {
                return new DoctorLog(file);
            } catch (IOException e) {
                System.getLogger("io.jasyncio.debug").log(System.Logger.Level.ERROR,
                        "jasyncio doctor: cannot write " + file + "; recording to JFR only", e);
                return null;
            }
        }

        void add(EventLoop loop) {
            CooperativeBudget budget = CooperativeBudget.of(loop);
            if (budget.get() == 0) {
                budget.set(Integer.MAX_VALUE); // counts this loop's awaits that did not yield; never spent
            }
            LoopCheckup checkup = new LoopCheckup(ids.getAndIncrement(), loop, log);
            if (log != null) {
                log.write("loop", checkup.id, EventLoops.implementationOf(loop));
            }
            loops.add(checkup);
        }

        private void sampleForever() {
            // On a thread of its own: setting JFR up can take seconds on a busy machine.
            Thread.ofPlatform().daemon().name("jasyncio-doctor-jfr")
                    .start(() -> FlightRecorder.addPeriodicEvent(LoopSampleEvent.class, this::commitSamples));
            for (long beat = 1; ; beat++) {
                long before = System.nanoTime();
                LockSupport.parkNanos(HEARTBEAT_NANOS);
                long overslept = System.nanoTime() - before - HEARTBEAT_NANOS;
                if (log != null && overslept > STALL_NANOS) { // the machine, not the program: tells the two apart
                    log.write("stall", String.format(java.util.Locale.ROOT, "%.1f", overslept / 1e6));
                }
                for (LoopCheckup checkup : loops) {
                    checkup.postProbe();
                    if (beat % BEATS_PER_SAMPLE == 0) {
                        checkup.sample();
                    }
                    if (checkup.loop.isClosed()) {
                        checkup.sample();
                        checkup.finish();
                        loops.remove(checkup);
                    }
                }
                if (log != null && beat % BEATS_PER_SAMPLE == 0) {
                    log.flush();
                }
            }
        }

        private void commitSamples() {
            for (LoopCheckup checkup : loops) {
                LoopStats.Snapshot s = checkup.stats.snapshot();
                LoopSampleEvent event = new LoopSampleEvent();
                event.loop = checkup.id;
                event.loopThread = checkup.threadName;
                event.iterations = s.iterations();
                event.selectNanos = s.selectNanos();
                event.callbackNanos = s.callbackNanos();
                event.readyMax = s.readyLast();
                event.timers = s.timersInHeap();
                event.cancelledTimers = s.cancelledTimersInHeap();
                event.pendingTasks = checkup.pendingTasks;
                event.tasksCreated = checkup.tasksCreated;
                event.executorQueue = checkup.executorQueue()[0];
                event.lagMaxNanos = (long) (checkup.jfrLagMaxMillis * 1e6);
                checkup.jfrLagMaxMillis = 0;
                event.slowSteps = checkup.slowSteps;
                event.commit();
            }
        }

        private void finish() {
            if (log != null) {
                // asyncio reports an exception nobody retrieved when its future is collected: collect
                // once now, so a short program's lost exceptions are reported before the totals.
                System.gc();
                LockSupport.parkNanos(100_000_000L);
            }
            for (LoopCheckup checkup : loops) {
                checkup.sample();
                checkup.finish();
            }
            if (log != null) {
                log.write("end");
                log.close();
            }
        }
    }
}
