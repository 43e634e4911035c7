package io.jasyncio.lab.report;

import java.nio.file.Files;
import java.nio.file.Path;

/** Report paths checked before a run starts, so a typo does not cost a whole run. */
public final class OutputFiles {
    private OutputFiles() {
    }

    /** Why {@code file} cannot be written (to stderr, then exit 2), or null when it can (or is null). */
    public static String problem(String option, Path file) {
        if (file == null) {
            return null;
        }
        Path absolute = file.toAbsolutePath();
        Path dir = absolute.getParent();
        if (Files.isDirectory(absolute)) {
            return option + " " + file + ": is a directory";
        }
        if (dir == null || !Files.isDirectory(dir)) {
            return option + " " + file + ": no such directory " + dir;
        }
        if (Files.exists(absolute) ? !Files.isWritable(absolute) : !Files.isWritable(dir)) {
            return option + " " + file + ": not writable";
        }
        return null;
    }
}
