package io.jasyncio.debug;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what the library logs through {@link System.Logger} on one logger name (the default
 * System.Logger backend is java.util.logging). Close to detach.
 */
public final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger; // strong reference: JUL loggers are weakly held
    private final boolean usedParentHandlers;
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    public LogCapture(String loggerName) {
        logger = Logger.getLogger(loggerName);
        usedParentHandlers = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false);
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
        messages.add(record.getMessage());
        records.add(record);
    }

    /** Every message logged so far, in order. */
    public List<String> messages() {
        return List.copyOf(messages);
    }

    /** The messages containing {@code text}. */
    public List<String> containing(String text) {
        return messages.stream().filter(m -> m != null && m.contains(text)).toList();
    }

    /** The messages logged at {@code level} containing {@code text}. */
    public List<String> containing(Level level, String text) {
        return records.stream().filter(r -> r.getLevel().equals(level) && r.getMessage() != null
                && r.getMessage().contains(text)).map(LogRecord::getMessage).toList();
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setUseParentHandlers(usedParentHandlers);
    }
}
