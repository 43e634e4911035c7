package io.jasyncio.debug.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event: one loop's vital signs, every second while the doctor watches the process
 * ({@code -Djasyncio.doctor=...}); what {@code ./jasyncio top PID} streams. Counters are totals
 * since the loop was created (a reader takes differences); the rest are gauges.
 */
@Name("io.jasyncio.LoopSample")
@Label("Event Loop Sample")
@Category({"jasyncio", "Event Loop"})
@Description("An event loop's counters and gauges, sampled periodically by the jasyncio doctor")
@Period("1 s")
@StackTrace(false)
public class LoopSampleEvent extends jdk.jfr.Event {
    /** The loop's number in this process (the doctor numbers loops as they are created). */
    @Label("Loop")
    public int loop;

    /** The name of the loop's thread. */
    @Label("Loop Thread")
    public String loopThread;

    /** Iterations since the loop was created (a running total). */
    @Label("Iterations")
    public long iterations;

    /** Time spent waiting in select since the loop was created (a running total). */
    @Label("Time In Select")
    @Timespan(Timespan.NANOSECONDS)
    public long selectNanos;

    /** Time spent running callbacks since the loop was created (a running total). */
    @Label("Time In Callbacks")
    @Timespan(Timespan.NANOSECONDS)
    public long callbackNanos;

    /** Callbacks the last iteration ran (the ready queue's depth then). */
    @Label("Ready Queue Max")
    public int readyMax;

    /** Timers in the heap now, cancelled ones included. */
    @Label("Timers In Heap")
    public int timers;

    /** Cancelled timers still in the heap now. */
    @Label("Cancelled Timers In Heap")
    public int cancelledTimers;

    /** Tasks not done yet, as of the last heartbeat. */
    @Label("Pending Tasks")
    public int pendingTasks;

    /** Tasks created since the loop was created (a running total). */
    @Label("Tasks Created")
    public long tasksCreated;

    /** Jobs waiting in the default executor's queue now. */
    @Label("Executor Queue")
    public int executorQueue;

    /** The longest heartbeat lag since the previous sample. */
    @Label("Heartbeat Lag Max")
    @Timespan(Timespan.NANOSECONDS)
    public long lagMaxNanos;

    /** Steps that ran 100 ms or more since the loop was created (a running total). */
    @Label("Slow Steps")
    public long slowSteps;

    /** An event to fill in and commit (the doctor does, every second). */
    public LoopSampleEvent() {
    }
}
