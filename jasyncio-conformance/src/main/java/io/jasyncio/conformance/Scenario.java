package io.jasyncio.conformance;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.InvalidStateException;
import io.jasyncio.loop.VirtualClock;
import io.jasyncio.task.ThrowingCoroutine;
import io.jasyncio.task.Runner;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A Java port of one reference scenario ({@code shared/scenarios/NN_name.py}): it prints the
 * same trace as asyncio, byte for byte. Ports print only through {@link #print}, so the suite can
 * capture them, and make loops only through {@link #newLoop()} / {@link #asyncioRun}, so the
 * suite can run each port on every loop implementation.
 */
public abstract class Scenario {
    private PrintStream out;
    private String loopName;

    /** The scenario's file stem, e.g. {@code 01_call_soon_fifo}. */
    public abstract String name();

    /** The port itself. */
    protected abstract void run() throws Exception;

    /** Runs the port on the named loop, printing to {@code out}. */
    public final void run(PrintStream out, String loopName) throws Exception {
        this.out = out;
        this.loopName = loopName;
        try {
            run();
        } finally {
            out.flush();
        }
    }

    /** Runs the port on the named loop and returns what it printed. */
    public final String runCapturing(String loopName) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            run(capture, loopName);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** A fresh loop of the implementation under test (asyncio.new_event_loop()). */
    protected final EventLoop newLoop() {
        EventLoop loop = EventLoops.newEventLoop(loopName);
        if (onVirtualClock()) {
            loop.setClock(new VirtualClock());
        }
        return loop;
    }

    /** asyncio.run(main) on the implementation under test. */
    protected final <T, X extends Exception> T asyncioRun(ThrowingCoroutine<T, X> main) throws X {
        try (Runner runner = new Runner(false, loopName)) {
            if (onVirtualClock()) {
                runner.getLoop().setClock(new VirtualClock());
            }
            return runner.run(main);
        }
    }

    /**
     * Whether the port runs on a {@link VirtualClock}: for traces whose order only holds while the
     * machine keeps a timer of a few milliseconds from falling due before the next iteration (a
     * loaded machine does not). The virtual clock gives that order every time, as CPython printed it.
     */
    protected boolean onVirtualClock() {
        return false;
    }

    /** Python's print(*parts): the parts joined by single spaces, then a newline. Thread-safe. */
    protected final void print(Object... parts) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                line.append(' ');
            }
            line.append(str(parts[i]));
        }
        synchronized (this) {
            out.println(line);
        }
    }

    /** Booleans as the scenarios print them. */
    protected static String b(boolean value) {
        return value ? "true" : "false";
    }

    /** A value as Python's str() would show it in these traces (null is "none", booleans lower case). */
    protected static String str(Object value) {
        if (value == null) {
            return "none";
        }
        if (value instanceof Boolean bool) {
            return b(bool);
        }
        return value.toString();
    }

    /** "<ErrorName>: <message>", or "<ErrorName>" when the message is empty, with asyncio's names. */
    protected static String err(Throwable t) {
        String name = errorName(t);
        String message = t.getMessage();
        return message == null || message.isEmpty() ? name : name + ": " + message;
    }

    private static final Map<String, String> ASYNCIO_NAMES = Map.of(
            "InvalidStateException", "InvalidStateError",
            "TimeoutException", "TimeoutError",
            "IncompleteReadException", "IncompleteReadError",
            "LimitOverrunException", "LimitOverrunError",
            "BrokenBarrierException", "BrokenBarrierError",
            "QueueFullException", "QueueFull",
            "QueueEmptyException", "QueueEmpty",
            "QueueShutDownException", "QueueShutDown");

    /** The asyncio name of an error: library classes map to asyncio's names, labels keep theirs. */
    protected static String errorName(Throwable t) {
        if (t instanceof Labeled labeled) {
            return labeled.label();
        }
        if (t instanceof CancelledError) {
            return "CancelledError";
        }
        if (t instanceof InvalidStateException) {
            return "InvalidStateError";
        }
        String simple = t.getClass().getSimpleName();
        return ASYNCIO_NAMES.getOrDefault(simple, simple);
    }

    /** A scenario's own failure, printed under the label the scenario picks ("ValueError", ...). */
    public interface Labeled {
        String label();
    }

    /** Python's ValueError, for the scenarios that raise one. */
    public static final class ValueError extends RuntimeException implements Labeled {
        public ValueError(String message) {
            super(message);
        }

        @Override
        public String label() {
            return "ValueError";
        }
    }

    /** Python's RuntimeError, for the scenarios that raise one. */
    public static final class RuntimeError extends RuntimeException implements Labeled {
        public RuntimeError(String message) {
            super(message);
        }

        @Override
        public String label() {
            return "RuntimeError";
        }
    }
}
