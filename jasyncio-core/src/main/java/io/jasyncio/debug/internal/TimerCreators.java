package io.jasyncio.debug.internal;

import io.jasyncio.loop.TimerHandle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The doctor's attribution of timers to the code that created them: every
 * {@value #SAMPLE_EVERY}th timer scheduled on the loop has its creator taken from the stack (the
 * first frame outside the JDK and jasyncio's core: {@code OrderService.handle(OrderService.java:111)},
 * or {@code io.jasyncio.http.client.ConnectionPool.watch(...)} for the HTTP client's own), and is
 * followed until it is due or is found cancelled before it, so that the cancelled timers can be
 * told apart by creator: the program's own, or the library's. Loop thread only.
 */
final class TimerCreators {
    static final int SAMPLE_EVERY = 4;
    /** Followed timers at most: beyond, new samples are not taken until some end. */
    private static final int MAX_FOLLOWED = 10_000;
    private static final StackWalker WALKER = StackWalker.getInstance();

    /** The packages a timer's creator is looked for beyond: the JDK and the core's loop machinery. */
    private static final String[] SKIPPED = {"java.", "jdk.", "sun.", "io.jasyncio.loop.", "io.jasyncio.task.",
            "io.jasyncio.sync.", "io.jasyncio.context.", "io.jasyncio.util.", "io.jasyncio.exec.", "io.jasyncio.debug.",
            "io.jasyncio.Asyncio", "io.jasyncio.junit."};

    static {
        // The first walk loads and links the walker's machinery (a few hundred ms on a busy
        // machine): here, as the doctor watches a new loop, not on the loop's first timer.
        creatorOnStack();
    }

    /** Per creator: timers sampled, and how many of them were cancelled. */
    static final class Counts {
        long scheduled;
        long cancelled;
    }

    private record Followed(TimerHandle timer, String creator) {
    }

    private final Map<String, Counts> byCreator = new HashMap<>();
    private final List<Followed> followed = new ArrayList<>();
    private long seen;

    void scheduled(TimerHandle timer) {
        if (seen++ % SAMPLE_EVERY != 0 || followed.size() >= MAX_FOLLOWED) {
            return;
        }
        String creator = creatorOnStack();
        byCreator.computeIfAbsent(creator, k -> new Counts()).scheduled++;
        followed.add(new Followed(timer, creator));
    }

    /**
     * Counts the followed timers found cancelled before they were due (the ones that linger in
     * the heap), and lets go of those that are due: they ran, or were cancelled too close to
     * their time to linger (a {@code sleep}'s timer, cancelled after it fired, among them).
     * {@code now}: the loop's time; called every heartbeat (50 ms).
     */
    void settle(double now) {
        Iterator<Followed> it = followed.iterator();
        while (it.hasNext()) {
            Followed f = it.next();
            if (f.timer.when() <= now) {
                it.remove();
            } else if (f.timer.isCancelled()) {
                byCreator.get(f.creator).cancelled++;
                it.remove();
            }
        }
    }

    /** The counts so far, by creator. */
    Map<String, Counts> counts() {
        return byCreator;
    }

    /** The first frame of the current stack outside the JDK and the core's loop machinery. */
    private static String creatorOnStack() {
        return WALKER.walk(frames -> frames.limit(24)
                .filter(f -> !skipped(f.getClassName()))
                .findFirst()
                .map(f -> f.getClassName() + "." + f.getMethodName() + "(" + f.getFileName() + ":" + f.getLineNumber() + ")")
                .orElse("(the loop itself)"));
    }

    private static boolean skipped(String className) {
        for (String p : SKIPPED) {
            if (className.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
