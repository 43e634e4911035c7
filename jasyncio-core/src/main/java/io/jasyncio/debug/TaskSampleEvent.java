package io.jasyncio.debug;

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
    @Label("Loop")
    public int loop;

    @Label("Loop Thread")
    public String loopThread;

    @Label("Task Id")
    public String taskId;

    @Label("Task Name")
    public String name;

    @Label("State")
    public String state;

    @Label("Steps")
    public long steps;

    @Label("Time On The Loop")
    @Timespan(Timespan.NANOSECONDS)
    public long loopNanos;

    @Label("Interval")
    @Timespan(Timespan.NANOSECONDS)
    public long intervalNanos;

    @Label("Suspended At")
    public String suspendedAt;

    @Label("Awaited By")
    public String awaitedBy;
}
