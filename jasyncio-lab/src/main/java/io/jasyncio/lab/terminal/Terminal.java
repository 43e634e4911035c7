package io.jasyncio.lab.terminal;

import java.util.ArrayList;
import java.util.List;

/**
 * Terminal output: lines wrapped to fit {@link #WIDTH} columns, and colour only when the output
 * is a terminal (never in a file, a pipe or a test).
 */
public final class Terminal {
    public static final int WIDTH = 100;

    private static final boolean COLOUR = System.console() != null && System.console().isTerminal()
            && System.getenv("NO_COLOR") == null;

    private Terminal() {
    }

    /** {@code text} in the ANSI colour {@code code} (31 red, 32 green, 33 yellow...) on a terminal, else as is. */
    public static String colour(int code, String text) {
        return COLOUR ? "\u001b[" + code + "m" + text + "\u001b[0m" : text;
    }

    /**
     * {@code text} broken at spaces into lines of at most {@link #WIDTH} columns: the first starts
     * with {@code first}, the others with {@code rest} (indentation). A word longer than a line is
     * cut.
     */
    public static List<String> wrap(String text, String first, String rest) {
        if (first.length() + text.length() <= WIDTH) {
            return List.of(first + text); // fits: as is, spaces and all
        }
        int indent = 0;
        while (indent < text.length() && text.charAt(indent) == ' ') {
            indent++;
        }
        first = first + text.substring(0, indent); // a table row's own indentation stays
        text = text.substring(indent);
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(first);
        int start = first.length();
        for (String word : text.split(" ")) {
            if (line.length() > start && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder(rest);
                start = rest.length();
            }
            if (line.length() > start) {
                line.append(' ');
            }
            while (line.length() + word.length() > WIDTH && WIDTH - line.length() > 8) {
                int cut = WIDTH - line.length();
                lines.add(line.append(word, 0, cut).toString());
                word = word.substring(cut);
                line = new StringBuilder(rest);
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
