package io.jasyncio.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a Linux process has used, all threads together: utime + stime from
 * {@code /proc/PID/stat}, in clock ticks of {@code 1/USER_HZ} s (USER_HZ is 100 on Linux;
 * bench/compare.sh checks {@code getconf CLK_TCK}). Used to charge each echoed message with the
 * server's own CPU, which is what a single-core comparison should judge.
 */
final class ProcessCpu {
    static final double TICKS_PER_SECOND = 100.0;

    private final Path stat;

    ProcessCpu(long pid) {
        this.stat = Path.of("/proc", Long.toString(pid), "stat");
    }

    /** Seconds of CPU (user + system) the process has used so far. */
    double seconds() throws IOException {
        String line = Files.readString(stat);
        // Field 2 (comm) is in parentheses and may hold spaces: count fields after the last ')'.
        String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
        long utime = Long.parseLong(f[11]);   // field 14 of the line
        long stime = Long.parseLong(f[12]);   // field 15
        return (utime + stime) / TICKS_PER_SECOND;
    }
}
