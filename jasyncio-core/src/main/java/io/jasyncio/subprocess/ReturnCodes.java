package io.jasyncio.subprocess;

/**
 * asyncio's return code from what the JDK reports. The JDK's reaper folds a death by signal N
 * into the exit value {@code 128 + N} (as shells do), so a value above 128 is told apart from a
 * plain {@code exit(128 + N)} by whether we sent signal N: then it is asyncio's {@code -N}.
 */
final class ReturnCodes {
    private ReturnCodes() {
    }

    static int of(int exitValue, long signalsSent) {
        int signal = exitValue - 128;
        if (signal > 0 && signal < 64 && (signalsSent & (1L << signal)) != 0) {
            return -signal;
        }
        return exitValue;
    }
}
