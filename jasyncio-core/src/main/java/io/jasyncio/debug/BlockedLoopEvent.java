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
    /** The name of the loop's thread. */
    @Label("Loop Thread")
    public String loopThread;

    /** The running handle, as reports name it. */
    @Label("Handle")
    public String handle;

    /** How long the handle had been running when the stack was taken. */
    @Label("Blocked For")
    @Timespan(Timespan.NANOSECONDS)
    public long blockedFor;

    /** The most recent frame outside the JDK: the call that blocks. */
    @Label("Blocking Frame")
    public String blockingFrame;

    /** The whole report, the loop thread's stack included. */
    @Label("Loop Thread Stack")
    public String stack;

    /** An event to fill in and commit (the watchdog does). */
    public BlockedLoopEvent() {
    }
}
