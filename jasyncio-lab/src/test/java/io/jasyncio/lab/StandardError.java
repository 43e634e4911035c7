package io.jasyncio.lab;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/**
 * What a command writes to {@code System.err} while it runs, captured so a test of an error path
 * can assert on the message (and a passing run prints nothing).
 */
record StandardError(int exitCode, String text) {

    /** Runs {@code command} with {@code System.err} captured; its exit code and what it wrote there. */
    static StandardError capture(IntSupplier command) {
        PrintStream original = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            int code = command.getAsInt();
            return new StandardError(code, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(original);
        }
    }
}
