package io.jasyncio.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code listening on HOST:PORT} line every server of the comparisons prints once bound. */
final class ListeningLine {
    private static final Pattern LISTENING = Pattern.compile("^listening on (.+):(\\d+)$");

    private ListeningLine() {
    }

    /** Reads the server's output up to that line: its match (group 1 the host, 2 the port), or null at the end. */
    static Matcher await(BufferedReader out) throws IOException {
        for (String line; (line = out.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(line);
            if (m.matches()) {
                return m;
            }
        }
        return null;
    }
}
