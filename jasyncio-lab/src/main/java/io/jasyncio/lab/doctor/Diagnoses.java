package io.jasyncio.lab.doctor;

import io.jasyncio.lab.doctor.DoctorRecording.Error;
import io.jasyncio.lab.doctor.DoctorRecording.Held;
import io.jasyncio.lab.doctor.DoctorRecording.Loop;
import io.jasyncio.lab.doctor.DoctorRecording.Purge;
import io.jasyncio.lab.doctor.DoctorRecording.Sample;
import io.jasyncio.lab.doctor.DoctorRecording.SlowStep;
import io.jasyncio.lab.doctor.DoctorRecording.TimerCreator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The doctor's reading of a recording: the lab's claims, looked for in the program's own loops.
 * Each rule fires only on evidence, so a healthy program gets no diagnosis at all.
 *
 * <ul>
 *   <li>A step that held the loop 100 ms or more with at least {@value #NO_YIELD_AWAITS} awaits of
 *       done futures is the lab's {@code no-yield}: awaits that do not yield starve the loop.</li>
 *   <li>Any other such step is the lab's {@code blocked-loop}: a blocking call on the loop, named by
 *       the watchdog's blocking frame. Only steps the watchdog took a stack of are diagnosed;
 *       those whose stack is class loading or the library's own code are the JVM warming up, those
 *       during which the doctor's own thread stalled half as long are the machine, and a frame
 *       that held the loop only once and for less than 250 ms may be a first call: noted, not
 *       diagnosed.</li>
 *   <li>More than half of a heap of over 100 timers cancelled, or a purge, is the lab's
 *       {@code lazy-timers}: cancelled timers linger in the heap. The cancelled timers are
 *       attributed to the code that created them (a sample: {@link DoctorRecording.TimerCreator});
 *       when most were created by jasyncio's own modules (its HTTP client, its networking), the
 *       program cannot change them: noted, not diagnosed.</li>
 *   <li>Exceptions reported as never retrieved, other reports to the exception handler, and
 *       {@value #EXECUTOR_BACKLOG} or more jobs waiting for the default executor (which, by
 *       default a virtual thread per call, only queues when the program chose a sized pool).</li>
 * </ul>
 */
public final class Diagnoses {
    static final long NO_YIELD_AWAITS = 1000;
    static final int EXECUTOR_BACKLOG = 10;
    private static final double WARM_UP_MILLIS = 1000;
    /** A hold seen only once is diagnosed from this long on; shorter, it may be a first call or the machine. */
    private static final double ONE_OFF_MILLIS = 250;

    private Diagnoses() {
    }

    /** What the findings are, and the notes (warm-up) that are not findings. */
    public record Reading(List<Diagnosis> diagnoses, List<String> notes) {
    }

    public static Reading of(DoctorRecording recording) {
        List<Diagnosis> out = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Loop loop : recording.loops()) {
            slowSteps(loop, recording.stalls(), out, notes);
            timers(loop, out, notes);
            errors(loop, out);
            executor(loop, out);
        }
        return new Reading(out, notes);
    }

    // ---- steps that held the loop ------------------------------------------------------------------

    private static void slowSteps(Loop loop, List<DoctorRecording.Stall> stalls, List<Diagnosis> out,
                                  List<String> notes) {
        Map<String, List<SlowStep>> blockingByFrame = new LinkedHashMap<>();
        Map<String, Held> stackOf = new LinkedHashMap<>();
        Map<String, List<SlowStep>> noYieldByTask = new LinkedHashMap<>();
        for (SlowStep step : loop.slowSteps()) {
            Held held = heldDuring(loop, step);
            double stalled = machineStall(stalls, step);
            if (step.awaits() >= NO_YIELD_AWAITS) {
                noYieldByTask.computeIfAbsent(step.task(), k -> new ArrayList<>()).add(step);
            } else if (held == null) {
                notes.add(String.format(Locale.ROOT, "%s: %s held the loop %.0f ms, and the watchdog took no stack "
                                + "of it (%s): not diagnosed without one", loop.thread(), describe(step), step.millis(),
                        step.at() - step.millis() < loop.createdAt() + WARM_UP_MILLIS
                                ? "early in the loop's life, the JVM warming up" : "a busy machine delays it"));
            } else if (isWarmUp(held)) {
                notes.add(String.format(Locale.ROOT, "%s: %s held the loop %.0f ms in %s: the JVM warming up "
                        + "(class loading, the library's first calls), not counted", loop.thread(), describe(step),
                        step.millis(), held.frame()));
            } else if (stalled >= step.millis() / 2) {
                notes.add(String.format(Locale.ROOT, "%s: %s held the loop %.0f ms at %s while the machine itself "
                        + "stalled the doctor's own thread %.0f ms: not counted", loop.thread(), describe(step),
                        step.millis(), held.frame(), stalled));
            } else {
                blockingByFrame.computeIfAbsent(held.frame(), k -> new ArrayList<>()).add(step);
                stackOf.putIfAbsent(held.frame(), held);
            }
        }
        blockingByFrame.forEach((frame, steps) -> {
            SlowStep longest = longest(steps);
            if (steps.size() == 1 && longest.millis() < ONE_OFF_MILLIS) {
                notes.add(String.format(Locale.ROOT, "%s: %s held the loop once, %.0f ms, at %s: a one-off (a first "
                        + "call, or the machine stalling), not diagnosed", loop.thread(), describe(longest),
                        longest.millis(), frame));
                return;
            }
            List<String> evidence = new ArrayList<>();
            evidence.add(times(steps));
            Held held = stackOf.get(frame);
            if (held != null) {
                evidence.add("loop thread stack while held:");
                held.stack().stream().limit(8).forEach(f -> evidence.add("  at " + f));
            }
            out.add(new Diagnosis("blocking-call", loop.thread(), String.format(Locale.ROOT,
                    "the loop was held %.0f ms by %s at %s: a blocking call on the loop", longest.millis(),
                    describe(longest), frame),
                    "move it off the loop: toThread(() -> ...) or runInExecutor", evidence));
        });
        noYieldByTask.forEach((task, steps) -> {
            SlowStep longest = longest(steps);
            out.add(new Diagnosis("no-yield", loop.thread(), String.format(Locale.ROOT,
                    "%s ran %.0f ms without a pending await (%,d awaits of done futures in that step): "
                            + "await-that-does-not-yield starvation", describe(longest), longest.millis(),
                    longest.awaits()),
                    "add sleep(0) every few hundred awaits, or enable the cooperative budget "
                            + "(CooperativeBudget.of(loop).set(1000))", List.of(times(steps))));
        });
    }

    /** The watchdog's report taken during the step: the same step count, the same handle. */
    private static Held heldDuring(Loop loop, SlowStep step) {
        for (Held h : loop.held()) {
            if (h.step() == step.step() && taskNamePart(h.handle()).equals(taskNamePart(step.handle()))) {
                return h;
            }
        }
        return null;
    }

    /** The longest stall of the doctor's own thread that ended while the step ran. */
    private static double machineStall(List<DoctorRecording.Stall> stalls, SlowStep step) {
        double longest = 0;
        for (DoctorRecording.Stall s : stalls) {
            if (s.at() >= step.at() - step.millis() && s.at() <= step.at() + 100) {
                longest = Math.max(longest, s.millis());
            }
        }
        return longest;
    }

    /** A handle's description without its state ({@code pending}/{@code finished} changes as it runs). */
    private static String taskNamePart(String handle) {
        return handle.replaceFirst("^<Task (pending|finished|cancelled)", "<Task");
    }

    private static boolean isWarmUp(Held held) {
        if (held.frame().isEmpty() || isLibrary(held.frame())) {
            return true; // the library's own code is the first non-JDK frame: a first call, not the program's
        }
        return held.stack().stream().anyMatch(io.jasyncio.debug.WarmUp::isClassLoading); // the watchdog's rule too
    }

    private static boolean isLibrary(String frame) {
        for (String p : new String[]{"io.jasyncio.loop.", "io.jasyncio.task.", "io.jasyncio.net.", "io.jasyncio.sync.",
                "io.jasyncio.exec.", "io.jasyncio.context.", "io.jasyncio.debug.", "io.jasyncio.epoll.", "io.jasyncio.util.",
                "io.jasyncio.Asyncio."}) {
            if (frame.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static String describe(SlowStep step) {
        return step.task().startsWith("(") ? "a callback " + step.handle() : "task '" + step.task() + "'";
    }

    private static SlowStep longest(List<SlowStep> steps) {
        SlowStep longest = steps.getFirst();
        for (SlowStep s : steps) {
            if (s.millis() > longest.millis()) {
                longest = s;
            }
        }
        return longest;
    }

    private static String times(List<SlowStep> steps) {
        double total = steps.stream().mapToDouble(SlowStep::millis).sum();
        StringBuilder at = new StringBuilder();
        for (SlowStep s : steps.subList(0, Math.min(5, steps.size()))) {
            at.append(at.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.0f ms at %.1f s", s.millis(),
                    (s.at() - s.millis()) / 1000));
        }
        return String.format(Locale.ROOT, "%d time(s), %.0f ms in all: %s%s", steps.size(), total, at,
                steps.size() > 5 ? ", ..." : "");
    }

    // ---- the timer heap ----------------------------------------------------------------------------

    private static void timers(Loop loop, List<Diagnosis> out, List<String> notes) {
        Sample peak = null;
        for (Sample s : loop.samples()) {
            if (s.peakHeap() > 100 && (peak == null
                    || (long) s.peakCancelled() * peak.peakHeap() > (long) peak.peakCancelled() * s.peakHeap())) {
                peak = s;
            }
        }
        boolean halfCancelled = peak != null && peak.peakCancelled() * 2L > peak.peakHeap();
        if (!halfCancelled && loop.purges().isEmpty()) {
            return;
        }
        List<TimerCreator> cancellers = loop.timerCreators().stream().filter(c -> c.cancelled() > 0)
                .sorted(Comparator.comparingLong(TimerCreator::cancelled).reversed()).toList();
        long libraryCancelled = cancellers.stream().filter(TimerCreator::isLibrary).mapToLong(TimerCreator::cancelled).sum();
        long programCancelled = cancellers.stream().filter(c -> !c.isLibrary()).mapToLong(TimerCreator::cancelled).sum();
        List<String> byCreator = cancellers.stream().limit(5).map(c -> String.format(Locale.ROOT,
                "  %s: %,d of %,d sampled timers cancelled%s", c.creator(), c.cancelled(), c.scheduled(),
                c.isLibrary() ? " (jasyncio's own)" : "")).toList();
        if (libraryCancelled > programCancelled) {
            notes.add(String.format(Locale.ROOT, "%s: the timer heap held many cancelled timers, but jasyncio's own "
                    + "modules created most of them (%,d of the %,d cancelled timers sampled, 1 in %d): not the "
                    + "program's to change, not diagnosed (%s)", loop.thread(), libraryCancelled,
                    libraryCancelled + programCancelled, cancellers.getFirst().sampleEvery(),
                    String.join("; ", byCreator.stream().map(String::strip).toList())));
            return;
        }
        List<String> evidence = new ArrayList<>();
        if (peak != null) {
            evidence.add(String.format(Locale.ROOT, "at %.1f s the heap held %,d timers, %,d of them cancelled",
                    peak.at() / 1000, peak.peakHeap(), peak.peakCancelled()));
        }
        if (!loop.purges().isEmpty()) {
            Purge largest = loop.purges().getFirst();
            for (Purge p : loop.purges()) {
                if (p.removed() > largest.removed()) {
                    largest = p;
                }
            }
            evidence.add(String.format(Locale.ROOT, "%d purge(s) rebuilt the heap; the largest dropped %,d of %,d "
                    + "timers in %.2f ms", loop.purges().size(), largest.removed(), largest.heapBefore(), largest.millis()));
        }
        if (loop.totals() != null && loop.totals().timersScheduled() > 0) {
            evidence.add(String.format(Locale.ROOT, "%,d of the %,d timers scheduled were cancelled before they "
                            + "were due", loop.totals().timersCancelled(), loop.totals().timersScheduled()));
        }
        String share = peak != null
                ? String.format(Locale.ROOT, "%.0f%% of the timer heap (%,d of %,d) was cancelled timers",
                100.0 * peak.peakCancelled() / peak.peakHeap(), peak.peakCancelled(), peak.peakHeap())
                : String.format(Locale.ROOT, "the timer heap was purged %d time(s)", loop.purges().size());
        if (!byCreator.isEmpty()) {
            evidence.add(String.format(Locale.ROOT, "the cancelled timers by the code that created them (1 in %d "
                    + "sampled):", cancellers.getFirst().sampleEvery()));
            evidence.addAll(byCreator);
        }
        String where = cancellers.stream().filter(c -> !c.isLibrary()).findFirst()
                .map(c -> " (most are created at " + c.creator() + ")").orElse("");
        out.add(new Diagnosis("cancelled-timers", loop.thread(), share
                + ": cancelled timeouts linger in the heap (and in memory) until more than half of it is cancelled"
                + where,
                "cancel fewer long timers: give a deadline to the whole operation rather than to each request, "
                        + "or check one periodic deadline", evidence));
    }

    // ---- errors and the executor -------------------------------------------------------------------

    private static void errors(Loop loop, List<Diagnosis> out) {
        List<Error> lost = loop.errors().stream().filter(e -> e.message().contains("never retrieved")).toList();
        List<Error> other = loop.errors().stream().filter(e -> !e.message().contains("never retrieved")).toList();
        if (!lost.isEmpty()) {
            out.add(new Diagnosis("lost-exceptions", loop.thread(), String.format(Locale.ROOT,
                    "%d exception(s) were never retrieved: tasks failed and nobody awaited them (e.g. %s)", lost.size(),
                    lost.getFirst().exception()),
                    "await every task you create (a TaskGroup does), or add a done callback that reads the exception",
                    lost.stream().limit(3).map(e -> e.message() + ": " + e.exception()).toList()));
        }
        if (!other.isEmpty()) {
            out.add(new Diagnosis("loop-errors", loop.thread(), String.format(Locale.ROOT,
                    "%d error(s) reached the loop's exception handler (e.g. %s)", other.size(), other.getFirst().message()),
                    "read the program's log for each; a callback that throws loses its work",
                    other.stream().limit(5).map(e -> e.message() + ": " + e.exception()).toList()));
        }
    }

    private static void executor(Loop loop, List<Diagnosis> out) {
        Sample worst = null;
        for (Sample s : loop.samples()) {
            if (worst == null || s.executorQueue() > worst.executorQueue()) {
                worst = s;
            }
        }
        if (worst != null && worst.executorQueue() >= EXECUTOR_BACKLOG) {
            out.add(new Diagnosis("executor-backlog", loop.thread(), String.format(Locale.ROOT,
                    "up to %d jobs waited for the default executor (%d running) at %.1f s: toThread calls queue "
                            + "behind each other in a pool of fixed size", worst.executorQueue(),
                    worst.executorActive(), worst.at() / 1000),
                    "blocking I/O (JDBC, a blocking client, files): use toThread's default valve, a virtual thread "
                            + "per call, which does not queue (drop -Djasyncio.executor=platform or the sized "
                            + "setDefaultExecutor); CPU-bound work (a signature check, hashing): toCpu(...), one "
                            + "thread per core",
                    List.of()));
        }
    }
}
