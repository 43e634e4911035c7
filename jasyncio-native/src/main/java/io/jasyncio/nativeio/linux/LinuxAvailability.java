package io.jasyncio.nativeio.linux;

import io.jasyncio.loop.spi.ChannelFds;

import java.util.Locale;

/**
 * The availability check every Linux-only loop provider makes (epoll, io_uring): on Linux, the JVM
 * lets us read channel fds, and the provider's own probe (binding its C functions, setting up a
 * ring) passes.
 */
public final class LinuxAvailability {
    private LinuxAvailability() {
    }

    /** What a provider tries once to know it can run; anything it throws says why not. */
    public interface Probe {
        /** Tries the facility once (binds a function, opens and closes an fd). */
        void run() throws Throwable;
    }

    /**
     * Null when {@code facility} can run here, else why not; a probe's failure is reported after
     * {@code failurePrefix}.
     */
    public static String unavailableReason(String facility, String failurePrefix, Probe probe) {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return facility + " exists only on Linux (this is " + os + ")";
        }
        try {
            String reason = ChannelFds.unavailableReason();
            if (reason != null) {
                return reason;
            }
            probe.run();
        } catch (Throwable t) { // LinkageError, native access denied, or the probe's own failure
            return failurePrefix + t;
        }
        return null;
    }
}
