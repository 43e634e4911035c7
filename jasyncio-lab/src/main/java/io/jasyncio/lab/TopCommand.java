package io.jasyncio.lab;

import io.jasyncio.lab.terminal.Terminal;
import jdk.jfr.consumer.RecordedEvent;
import jdk.management.jfr.RemoteRecordingStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code ./jasyncio top PID}: a live view of a running process's loops, refreshed each second,
 * from the JFR events the doctor's observer commits there ({@code io.jasyncio.LoopSample} every
 * second, {@code io.jasyncio.BlockedLoop} when the watchdog catches a held loop, and
 * {@code io.jasyncio.SlowCallback} when that hold ends, with its whole length). The process must
 * run with {@code -Djasyncio.doctor=jfr} (or a file); it is reached through the attach API, which
 * starts its local JMX agent, and JFR event streaming over that connection.
 */
@Command(name = "top", mixinStandardHelpOptions = true,
        description = "Live view of a running jasyncio process's loops (started with -Djasyncio.doctor=jfr)")
final class TopCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "the process to watch")
    long pid;

    @Option(names = "--iterations", paramLabel = "N", description = "refresh N times, then exit (default: until Ctrl-C)")
    int iterations;

    private final PrintStream out;
    private final Map<Integer, Deque<RecordedEvent>> samples = new ConcurrentHashMap<>(); // newest last
    private final Deque<Hold> held = new ArrayDeque<>(); // newest first

    /**
     * A hold the watchdog caught: {@code sightedMillis} when it took the stack (the threshold or a
     * little more), {@code fullMillis} once the step ended (-1 until then).
     */
    private static final class Hold {
        final String loopThread;
        final String handle;
        final String frame;
        final double sightedMillis;
        double fullMillis = -1;

        Hold(String loopThread, String handle, String frame, double sightedMillis) {
            this.loopThread = loopThread;
            this.handle = handle;
            this.frame = frame;
            this.sightedMillis = sightedMillis;
        }

        @Override
        public String toString() {
            String length = fullMillis >= 0 ? String.format(Locale.ROOT, "%.0f ms", fullMillis)
                    : String.format(Locale.ROOT, "%.0f+ ms (still held when the watchdog caught it)", sightedMillis);
            return loopThread + " held " + length + " by " + handle + " at " + frame;
        }
    }
    private final Map<Integer, java.util.List<RecordedEvent>> busiest = new ConcurrentHashMap<>(); // the latest second's, per loop

    TopCommand() {
        this(System.out);
    }

    TopCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        String address;
        try {
            address = AttachedJvm.managementAgent(pid);
        } catch (AttachedJvm.Unreachable e) {
            System.err.println("jasyncio top: " + e.getMessage());
            return 2;
        }
        JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(address));
        RemoteRecordingStream stream = new RemoteRecordingStream(jmx.getMBeanServerConnection());
        try {
            stream.setReuse(false); // samples are kept to take rates against: each must be its own object
            stream.enable("io.jasyncio.LoopSample").withPeriod(Duration.ofSeconds(1));
            stream.enable("io.jasyncio.BlockedLoop");
            stream.enable("io.jasyncio.SlowCallback");
            stream.enable("io.jasyncio.TaskSample");
            stream.onEvent("io.jasyncio.TaskSample", this::taskSampled);
            stream.onEvent("io.jasyncio.LoopSample", this::sampled);
            stream.onEvent("io.jasyncio.BlockedLoop", this::blocked);
            stream.onEvent("io.jasyncio.SlowCallback", this::holdEnded);
            stream.startAsync();
            for (int i = 0; iterations == 0 || i < iterations; i++) {
                Thread.sleep(1000);
                if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    out.println("jasyncio top: process " + pid + " ended");
                    break;
                }
                draw(i);
            }
        } finally {
            closeQuietly(stream);
            closeQuietly(jmx);
        }
        return 0;
    }

    /** The process may be gone, and its end of the connection with it: nothing left to close cleanly. */
    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception gone) {
            // the target ended first
        }
    }

    private synchronized void sampled(RecordedEvent e) {
        Deque<RecordedEvent> history = samples.computeIfAbsent(e.getInt("loop"), k -> new ArrayDeque<>());
        history.addLast(e);
        while (history.size() > 10) {
            history.removeFirst();
        }
    }

    /**
     * The newest sample at least 0.9 s older than the latest, to take rates against (JFR also emits
     * periodic events at chunk boundaries, so neighbours may be moments apart); null if none yet.
     */
    private static RecordedEvent aSecondBefore(Deque<RecordedEvent> history) {
        RecordedEvent latest = history.peekLast();
        RecordedEvent found = null;
        for (RecordedEvent e : history) {
            if (Duration.between(e.getStartTime(), latest.getStartTime()).toMillis() >= 900) {
                found = e;
            }
        }
        return found;
    }

    /** A report of the busiest tasks comes as up to five events at one moment: a later moment replaces them. */
    private synchronized void taskSampled(RecordedEvent e) {
        java.util.List<RecordedEvent> report = busiest.computeIfAbsent(e.getInt("loop"), k -> new java.util.ArrayList<>());
        if (!report.isEmpty() && Duration.between(report.getFirst().getStartTime(), e.getStartTime()).toMillis() > 100) {
            report.clear();
        }
        report.add(e);
    }

    private synchronized void blocked(RecordedEvent e) {
        held.addFirst(new Hold(e.getString("loopThread"), e.getString("handle"), e.getString("blockingFrame"),
                e.getDuration("blockedFor").toNanos() / 1e6));
        while (held.size() > 5) {
            held.removeLast();
        }
    }

    /**
     * A slow step ended: its whole length goes to the newest hold still open of the same handle
     * (or of any, when the stream lost either handle's text: it can deliver a string as null).
     */
    private synchronized void holdEnded(RecordedEvent e) {
        String handle = e.getString("handle");
        for (Hold h : held) {
            if (h.fullMillis < 0 && (h.handle == null || handle == null || h.handle.equals(handle))) {
                h.fullMillis = e.getDuration("took").toNanos() / 1e6;
                return;
            }
        }
    }

    private synchronized void draw(int refresh) {
        if (Terminal.colour(0, "").length() > 0) {
            out.print("\u001b[H\u001b[2J"); // a terminal: redraw in place
        }
        out.printf(Locale.ROOT, "jasyncio top: process %d, %d loop(s)%n", pid, samples.size());
        if (samples.isEmpty()) {
            out.println(refresh < 3 ? "waiting for the first samples..."
                    : "no loop samples: was the process started with -Djasyncio.doctor=jfr (and has it a loop)?");
        } else {
            out.println(Terminal.colour(1, String.format(Locale.ROOT, "%-16s %9s %7s %7s %6s %8s %8s %6s %6s %9s %5s",
                    "loop thread", "iter/s", "select", "running", "ready", "timers", "cancel", "tasks", "exec-q",
                    "lag max", "slow")));
            for (Deque<RecordedEvent> history : new TreeMap<>(samples).values()) {
                out.println(row(aSecondBefore(history), history.peekLast()));
            }
            Terminal.wrap(LEGEND, "", "  ").forEach(out::println);
        }
        if (!samples.isEmpty()) {
            drawTasks();
        }
        if (!held.isEmpty()) {
            out.println("recently held (each hold's whole length):");
            for (Hold h : held) {
                Terminal.wrap(h.toString(), "  ", "    ").forEach(out::println);
            }
        }
        out.flush();
    }

    /** What each column is: only "slow" is a running total; the rest describe the last second. */
    static final String LEGEND = "iter/s, select, running: over the last second; lag max: the worst in the last "
            + "second; ready (the last iteration's), timers, cancel, tasks, exec-q: now; slow: steps over 100 ms "
            + "since the loop started (a running total).";

    /** Task counts per loop (created, finished per second), then the busiest tasks of the last second. */
    private void drawTasks() {
        out.println(Terminal.colour(1, String.format(Locale.ROOT, "%-16s %9s %9s %9s", "loop thread", "tasks", "new/s", "done/s")));
        for (Deque<RecordedEvent> history : new TreeMap<>(samples).values()) {
            RecordedEvent now = history.peekLast();
            RecordedEvent previous = aSecondBefore(history);
            String created = "-";
            String done = "-";
            if (previous != null) {
                double seconds = Duration.between(previous.getStartTime(), now.getStartTime()).toNanos() / 1e9;
                long newTasks = now.getLong("tasksCreated") - previous.getLong("tasksCreated");
                long finished = newTasks - (now.getInt("pendingTasks") - previous.getInt("pendingTasks"));
                created = String.format(Locale.ROOT, "%,.0f", newTasks / seconds);
                done = String.format(Locale.ROOT, "%,.0f", finished / seconds);
            }
            out.printf(Locale.ROOT, "%-16.16s %9d %9s %9s%n", now.getString("loopThread"), now.getInt("pendingTasks"), created, done);
        }
        java.util.List<RecordedEvent> tasks = new java.util.ArrayList<>();
        new TreeMap<>(busiest).values().forEach(tasks::addAll);
        if (tasks.isEmpty()) {
            return;
        }
        out.println(Terminal.colour(1, String.format(Locale.ROOT, "%-16s %-12s %-16s %-8s %8s %6s  %s", "busiest tasks",
                "task id", "name", "state", "steps/s", "loop%", "suspended at (awaited by)")));
        for (RecordedEvent t : tasks) {
            double seconds = t.getDuration("intervalNanos").toNanos() / 1e9;
            String awaitedBy = t.getString("awaitedBy");
            out.println(String.format(Locale.ROOT, "%-16.16s %-12s %-16.16s %-8s %8.0f %5.1f%%  %s%s",
                    t.getString("loopThread"), t.getString("taskId"), t.getString("name"), t.getString("state"),
                    t.getLong("steps") / seconds, 100 * t.getDuration("loopNanos").toNanos() / 1e9 / seconds,
                    t.getString("suspendedAt"), awaitedBy == null || awaitedBy.isEmpty() ? "" : " (" + awaitedBy + ")"));
        }
    }

    private static String row(RecordedEvent previous, RecordedEvent now) {
        double seconds = previous == null ? 0
                : Duration.between(previous.getStartTime(), now.getStartTime()).toNanos() / 1e9;
        long iterations = now.getLong("iterations") - (previous != null ? previous.getLong("iterations") : 0);
        long select = now.getDuration("selectNanos").toNanos() - (previous != null ? previous.getDuration("selectNanos").toNanos() : 0);
        long running = now.getDuration("callbackNanos").toNanos() - (previous != null ? previous.getDuration("callbackNanos").toNanos() : 0);
        double busy = select + running;
        return String.format(Locale.ROOT, "%-16.16s %9s %6.0f%% %6.0f%% %6d %8d %8d %6d %6d %6.1f ms %5d",
                now.getString("loopThread"), seconds > 0 ? String.format(Locale.ROOT, "%,.0f", iterations / seconds) : "-",
                busy > 0 ? 100 * select / busy : 0.0, busy > 0 ? 100 * running / busy : 0.0, now.getInt("readyMax"),
                now.getInt("timers"), now.getInt("cancelledTimers"), now.getInt("pendingTasks"),
                now.getInt("executorQueue"), now.getDuration("lagMaxNanos").toNanos() / 1e6, now.getLong("slowSteps"));
    }
}
