package io.jasyncio.lab.doctor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the doctor's observer wrote inside the program ({@code io.jasyncio.debug.internal.Doctor}), read
 * back: one {@link Loop} per event loop the program created. Times are milliseconds since the
 * recording started.
 */
public record DoctorRecording(String command, boolean ended, List<Loop> loops, List<Stall> stalls) {

    public record Sample(double at, long iterations, long selectNanos, long callbackNanos, int readyMax, int heap,
                         int cancelled, int peakHeap, int peakCancelled, int pendingTasks, int executorQueue,
                         int executorActive, double lagMaxMillis) {
    }

    public record Beat(double at, double lagMillis) {
    }

    /**
     * A handle that held the loop 100 ms or more; {@code awaits}: awaits of done futures in the
     * step; {@code step}: the loop's count of handles started, which the watchdog's report shares.
     */
    public record SlowStep(double at, double millis, long awaits, String task, String handle, long step) {
    }

    /** The watchdog's stack of the held loop thread, taken while it was held. */
    public record Held(double at, double millis, String frame, String handle, List<String> stack, long step) {
    }

    /** The doctor's own sampler thread woke {@code millis} late: the machine, not the program, was busy. */
    public record Stall(double at, double millis) {
    }

    public record Purge(double at, int removed, int heapBefore, double millis) {
    }

    public record Error(double at, String message, String exception) {
    }

    /**
     * The code that created some of the loop's timers (one in {@code sampleEvery} was followed):
     * {@code scheduled} of them followed, {@code cancelled} of those cancelled before they were due.
     */
    public record TimerCreator(String creator, long scheduled, long cancelled, int sampleEvery) {
        /** Whether the creator is jasyncio's own code (its HTTP client, its networking), not the program's. */
        public boolean isLibrary() {
            return creator.startsWith("io.jasyncio.") && !creator.startsWith("io.jasyncio.lab.");
        }
    }

    public record Totals(String thread, long iterations, long selectNanos, long callbackNanos, long handles,
                         int readyMax, long timersScheduled, long timersCancelled, long timersFired, long slowSteps) {
    }

    /** One loop's record; {@code totals} is null when the program died before writing them. */
    public record Loop(int id, String type, String thread, double createdAt, List<Sample> samples, List<Beat> beats,
                       List<SlowStep> slowSteps, List<Held> held, List<Purge> purges, List<Error> errors,
                       List<TimerCreator> timerCreators, Totals totals) {
    }

    public static DoctorRecording read(Path file) throws IOException {
        Map<Integer, Builder> loops = new LinkedHashMap<>();
        String command = "";
        boolean ended = false;
        List<Stall> stalls = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = split(line);
            if (f.length < 2) {
                continue; // a line cut short by a killed program
            }
            double at = Double.parseDouble(f[1]);
            switch (f[0]) {
                case "start" -> command = f.length > 4 ? f[4].replaceFirst("^\\S*SourceLauncher ", "") : "";
                case "end" -> ended = true;
                case "stall" -> stalls.add(new Stall(at, Double.parseDouble(f[2])));
                case "loop" -> loops.put(Integer.parseInt(f[2]), new Builder(Integer.parseInt(f[2]), f[3], at));
                default -> {
                    Builder b = f.length > 2 ? loops.get(Integer.parseInt(f[2])) : null;
                    if (b != null) {
                        b.add(f[0], at, f);
                    }
                }
            }
        }
        return new DoctorRecording(command, ended, loops.values().stream().map(Builder::build).toList(), stalls);
    }

    private static final class Builder {
        final int id;
        final String type;
        final double createdAt;
        final List<Sample> samples = new ArrayList<>();
        final List<Beat> beats = new ArrayList<>();
        final List<SlowStep> slow = new ArrayList<>();
        final List<Held> held = new ArrayList<>();
        final List<Purge> purges = new ArrayList<>();
        final List<Error> errors = new ArrayList<>();
        final List<TimerCreator> timerCreators = new ArrayList<>();
        String thread = "";
        Totals totals;

        Builder(int id, String type, double createdAt) {
            this.id = id;
            this.type = type;
            this.createdAt = createdAt;
        }

        void add(String kind, double at, String[] f) {
            try {
                switch (kind) {
                    case "sample" -> {
                        samples.add(new Sample(at, l(f[3]), l(f[4]), l(f[5]), i(f[6]), i(f[7]), i(f[8]), i(f[9]),
                                i(f[10]), i(f[11]), i(f[12]), i(f[13]), d(f[14])));
                        if (!f[15].isEmpty()) {
                            thread = f[15];
                        }
                    }
                    case "beat" -> beats.add(new Beat(at, d(f[3])));
                    case "slow" -> slow.add(new SlowStep(at, d(f[3]), l(f[4]), f[5], f[6], l(f[7])));
                    case "watchdog" -> held.add(new Held(at, d(f[3]), f[4], f[5], List.of(f[6].split("\n")), l(f[7])));
                    case "purge" -> purges.add(new Purge(at, i(f[3]), i(f[4]), d(f[5])));
                    case "error" -> errors.add(new Error(at, f[3], f[4]));
                    case "timers" -> timerCreators.add(new TimerCreator(f[3], l(f[4]), l(f[5]), i(f[6])));
                    case "total" -> totals = new Totals(f[3].isEmpty() ? thread : f[3], l(f[4]), l(f[5]), l(f[6]),
                            l(f[7]), i(f[8]), l(f[9]), l(f[10]), l(f[11]), l(f[15]));
                    default -> {
                        // a record kind from a newer observer: skip it
                    }
                }
            } catch (ArrayIndexOutOfBoundsException | NumberFormatException cutShort) {
                // the last line of a killed program: skip it
            }
        }

        Loop build() {
            String name = totals != null && !totals.thread().isEmpty() ? totals.thread()
                    : thread.isEmpty() ? "loop " + id : thread;
            return new Loop(id, type, name, createdAt, samples, beats, slow, held, purges, errors, timerCreators, totals);
        }
    }

    private static long l(String s) {
        return Long.parseLong(s);
    }

    private static int i(String s) {
        return Integer.parseInt(s);
    }

    private static double d(String s) {
        return Double.parseDouble(s);
    }

    /** Splits at tabs and undoes the observer's escapes. */
    static String[] split(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        for (int k = 0; k < line.length(); k++) {
            char c = line.charAt(k);
            if (c == '\t') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (c == '\\' && k + 1 < line.length()) {
                char n = line.charAt(++k);
                field.append(switch (n) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> n;
                });
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields.toArray(new String[0]);
    }
}
