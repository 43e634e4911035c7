package io.jasyncio.debug;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** JFR event: one handle ran longer than the loop's slow-callback duration. */
@Name("io.jasyncio.SlowCallback")
@Label("Slow Callback")
@Category({"jasyncio", "Event Loop"})
@Description("A callback or task step held the event loop longer than slowCallbackDuration")
@StackTrace(false) // committed after the handle returned: the stack would be the loop's, not the culprit's
public class SlowCallbackEvent extends jdk.jfr.Event {
    /** The handle, as reports name it, then the eager task steps that ran in it, as debug mode's line names them. */
    @Label("Handle")
    public String handle;

    /** How long it ran. */
    @Label("Took")
    @Timespan(Timespan.NANOSECONDS)
    public long took;

    /** An event to fill in and commit. */
    public SlowCallbackEvent() {
    }
}
