package io.jasyncio.debug.internal;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The doctor's raw record: one line per fact, tab-separated, the kind first and then the
 * milliseconds since the recording started ({@code beat 1250.4 0 3.2}). Tabs, newlines and
 * backslashes inside a field are escaped as {@code \t}, {@code \n}, {@code \\}. The lab's
 * {@code doctor} command reads it back; the layout of each kind is in {@link Doctor}.
 */
final class DoctorLog implements AutoCloseable {
    private final BufferedWriter out;
    private final long startNanos = System.nanoTime();
    private boolean closed;

    DoctorLog(Path file) throws IOException {
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    /** Milliseconds since the recording started. */
    double now() {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    /** Appends one record stamped now; safe from any thread, a no-op once closed. */
    synchronized void write(String kind, Object... fields) {
        if (closed) {
            return;
        }
        StringBuilder line = new StringBuilder(kind).append('\t').append(String.format(java.util.Locale.ROOT, "%.1f", now()));
        for (Object field : fields) {
            line.append('\t');
            escape(line, String.valueOf(field));
        }
        try {
            out.write(line.append('\n').toString());
        } catch (IOException e) {
            closed = true; // the disk is gone: the program must not suffer for it
        }
    }

    synchronized void flush() {
        if (!closed) {
            try {
                out.flush();
            } catch (IOException e) {
                closed = true;
            }
        }
    }

    @Override
    public synchronized void close() {
        flush();
        closed = true;
        try {
            out.close();
        } catch (IOException ignored) {
            // nothing more to record
        }
    }

    private static void escape(StringBuilder line, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\t' -> line.append("\\t");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\\' -> line.append("\\\\");
                default -> line.append(c);
            }
        }
    }
}
