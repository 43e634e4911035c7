package io.jasyncio.debug;

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
    @Label("Loop")
    public int loop;

    @Label("Loop Thread")
    public String loopThread;

    @Label("Iterations")
    public long iterations;

    @Label("Time In Select")
    @Timespan(Timespan.NANOSECONDS)
    public long selectNanos;

    @Label("Time In Callbacks")
    @Timespan(Timespan.NANOSECONDS)
    public long callbackNanos;

    @Label("Ready Queue Max")
    public int readyMax;

    @Label("Timers In Heap")
    public int timers;

    @Label("Cancelled Timers In Heap")
    public int cancelledTimers;

    @Label("Pending Tasks")
    public int pendingTasks;

    @Label("Tasks Created")
    public long tasksCreated;

    @Label("Executor Queue")
    public int executorQueue;

    @Label("Heartbeat Lag Max")
    @Timespan(Timespan.NANOSECONDS)
    public long lagMaxNanos;

    @Label("Slow Steps")
    public long slowSteps;
}
