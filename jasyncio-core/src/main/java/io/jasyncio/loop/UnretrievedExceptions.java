package io.jasyncio.loop;

import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The failed futures of one loop whose exception nobody has retrieved yet, each reported once
 * ("Task exception was never retrieved"): when the future is garbage-collected (asyncio reports
 * it when the future is destroyed, which CPython's reference counting makes immediate), or at the
 * latest when the loop closes, so a failure nobody awaited never goes unsaid at the end of
 * {@code Asyncio.run}.
 *
 * <p>Only failures are tracked (one report object and one cleaner registration each, not one per
 * future). A report holds what it will say, never the future, so the future stays collectable;
 * a retrieved or reported one leaves the set, so the set holds only the failures still unseen.
 * The cleaner reports from its own thread, hence the lock. Plumbing between {@link Future} and
 * the loop.
 */
final class UnretrievedExceptions {
    private static final Cleaner CLEANER = Cleaner.create();

    private final FutureLoop loop;
    private final Set<Report> unseen = new LinkedHashSet<>(); // guarded by this

    /** The registry of {@code loop}'s failed futures nobody has looked at yet. */
    UnretrievedExceptions(FutureLoop loop) {
        this.loop = loop;
    }

    /**
     * Tracks {@code future}, which just failed with {@code exception}, until its exception is
     * retrieved ({@link Report#retrieved()}). The report's context is asyncio's: message,
     * exception, future ({@code description}: the future as it was when it failed, since the
     * report must not keep it alive), and, in debug mode, where it was created.
     */
    public Report track(Object future, String message, Throwable exception, String description,
                        StackTraceElement[] creationStack) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("message", message);
        context.put("exception", exception);
        context.put("future", description);
        if (creationStack != null) {
            context.put("source_traceback", creationStack);
        }
        Report report = new Report(this, context);
        report.cleanable = CLEANER.register(future, report); // the caller holds the future: no report before the add
        synchronized (this) {
            unseen.add(report);
        }
        return report;
    }

    /** Reports every failure still unseen to the loop's exception handler, on this thread: what closing the loop does. */
    public void reportAll() {
        List<Report> left;
        synchronized (this) {
            left = new ArrayList<>(unseen);
            unseen.clear();
        }
        for (Report report : left) {
            report.cleanable.clean(); // unregisters it; its action finds it no longer unseen
            loop.callExceptionHandler(report.context);
        }
    }

    private synchronized boolean claim(Report report) {
        return unseen.remove(report);
    }

    /** One failed future's report: dropped when its exception is retrieved, said when the future is collected. */
    public static final class Report implements Runnable {
        private final UnretrievedExceptions owner;
        private final Map<String, Object> context;
        private Cleaner.Cleanable cleanable;

        private Report(UnretrievedExceptions owner, Map<String, Object> context) {
            this.owner = owner;
            this.context = context;
        }

        /** The exception was retrieved: nothing to report. */
        public void retrieved() {
            if (owner.claim(this)) {
                cleanable.clean();
            }
        }

        /** The cleaner's action: the future was collected with its exception unseen. */
        @Override
        public void run() {
            if (owner.claim(this)) {
                owner.loop.reportUnretrieved(context);
            }
        }
    }
}
