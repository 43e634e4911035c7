package io.jasyncio.lab.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Catches debug mode's slow-callback lines ("Executing ... took N seconds"), which the loop logs
 * through {@code System.Logger} "io.jasyncio.loop" (backed by java.util.logging by default).
 * While installed, that logger's lines stay off the console.
 */
final class SlowCallbackLog implements AutoCloseable {
    /** The handle's time: the first "took" (an eager task step inside it is named after it, with its own). */
    private static final Pattern TOOK = Pattern.compile("Executing .*? took ([0-9.]+) seconds");

    private final Logger logger = Logger.getLogger("io.jasyncio.loop");
    private final boolean useParentHandlers = logger.getUseParentHandlers();
    private final List<String> lines = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            String message = record.getMessage();
            if (message != null && TOOK.matcher(message).find()) {
                synchronized (lines) {
                    lines.add(message);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    SlowCallbackLog() {
        logger.addHandler(handler);
        logger.setUseParentHandlers(false);
    }

    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** The longest duration any caught line reports, in seconds (0 when none). */
    double longestSeconds() {
        double longest = 0;
        for (String line : lines()) {
            Matcher m = TOOK.matcher(line);
            if (m.find()) {
                longest = Math.max(longest, Double.parseDouble(m.group(1)));
            }
        }
        return longest;
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(useParentHandlers);
    }
}
