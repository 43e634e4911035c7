package io.jasyncio.debug.internal;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * JFR event: one of the tasks that held a loop longest in the last second, while the doctor
 * watches the process; {@code ./jasyncio top PID} shows them under its loops.
 */
@Name("io.jasyncio.TaskSample")
@Label("Busy Task")
@Category({"jasyncio", "Event Loop"})
@Description("A task among the five that ran longest on a loop in the last second, and where it is suspended now")
@StackTrace(false)
public class TaskSampleEvent extends jdk.jfr.Event {
    /** The loop's number in this process. */
    @Label("Loop")
    public int loop;

    /** The name of the loop's thread. */
    @Label("Loop Thread")
    public String loopThread;

    /** The task's identity, as the call graph names it. */
    @Label("Task Id")
    public String taskId;

    /** The task's name. */
    @Label("Task Name")
    public String name;

    /** The task's state now: ready, waiting or done. */
    @Label("State")
    public String state;

    /** Steps the task ran in the interval. */
    @Label("Steps")
    public long steps;

    /** Time the task's steps held the loop in the interval. */
    @Label("Time On The Loop")
    @Timespan(Timespan.NANOSECONDS)
    public long loopNanos;

    /** How long the interval was. */
    @Label("Interval")
    @Timespan(Timespan.NANOSECONDS)
    public long intervalNanos;

    /** Where the task is suspended now, innermost await first. */
    @Label("Suspended At")
    public String suspendedAt;

    /** The tasks awaiting this one, or empty. */
    @Label("Awaited By")
    public String awaitedBy;

    /** An event to fill in and commit (the doctor does, every second). */
    public TaskSampleEvent() {
    }
}
