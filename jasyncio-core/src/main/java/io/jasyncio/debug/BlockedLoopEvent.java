package io.jasyncio.debug;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR event: the {@link Watchdog} caught the loop blocked; committed only while JFR records it. */
@Name("io.jasyncio.BlockedLoop")
@Label("Blocked Event Loop")
@Category({"jasyncio", "Event Loop"})
@Description("A handle held the event loop past the watchdog's threshold; the loop thread's stack was taken while blocked")
@StackTrace(false) // the event is committed by the watchdog thread: its own stack says nothing
public class BlockedLoopEvent extends jdk.jfr.Event {
    @Label("Loop Thread")
    public String loopThread;

    @Label("Handle")
    public String handle;

    @Label("Blocked For")
    @Timespan(Timespan.NANOSECONDS)
    public long blockedFor;

    @Label("Blocking Frame")
    public String blockingFrame;

    @Label("Loop Thread Stack")
    public String stack;
}
