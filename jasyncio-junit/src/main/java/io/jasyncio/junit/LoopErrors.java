package io.jasyncio.junit;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.ExceptionHandler;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The exception handler of a test's loop: logs each error as the default handler would, and
 * keeps it so the test can fail with the list. Errors that arrive after the test (an unretrieved
 * exception found by the garbage collector later) are only logged.
 */
final class LoopErrors implements ExceptionHandler {
    private final List<Map<String, Object>> received = new ArrayList<>();
    private boolean closed;

    @Override
    public void handle(EventLoop loop, Map<String, Object> context) {
        loop.defaultExceptionHandler(context);
        synchronized (this) { // the cleaner may report from its own thread once the loop is closed
            if (!closed) {
                received.add(new LinkedHashMap<>(context));
            }
        }
    }

    /** Stops collecting; returns what was received, in order. */
    synchronized List<Map<String, Object>> close() {
        closed = true;
        return List.copyOf(received);
    }

    /** The failure listing {@code errors}; their exceptions are attached as suppressed, with their stacks. */
    static AssertionFailedError failure(String testName, List<Map<String, Object>> errors) {
        StringBuilder text = new StringBuilder("the event loop's exception handler received ")
                .append(errors.size()).append(errors.size() == 1 ? " error" : " errors")
                .append(" during ").append(testName)
                .append(" (@AsyncTest(failOnLoopErrors = false) if they are expected):");
        for (Map<String, Object> context : errors) {
            text.append("\n  - ").append(describe(context));
        }
        AssertionFailedError failure = new AssertionFailedError(text.toString());
        for (Map<String, Object> context : errors) {
            if (context.get("exception") instanceof Throwable t) {
                failure.addSuppressed(t);
            }
        }
        return failure;
    }

    private static String describe(Map<String, Object> context) {
        StringBuilder line = new StringBuilder(String.valueOf(context.getOrDefault("message", "(no message)")));
        if (context.get("exception") instanceof Throwable t) {
            line.append(": ").append(t);
        }
        for (Map.Entry<String, Object> e : context.entrySet()) {
            String key = e.getKey();
            if (!key.equals("message") && !key.equals("exception") && !(e.getValue() instanceof StackTraceElement[])) {
                line.append("; ").append(key).append(": ").append(e.getValue());
            }
        }
        return line.toString();
    }
}
