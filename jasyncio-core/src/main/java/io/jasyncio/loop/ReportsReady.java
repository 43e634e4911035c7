package io.jasyncio.loop;

import java.time.ZonedDateTime;
import java.util.Locale;

/**
 * Loads, once per JVM and before the first report, what reporting reads from files: the
 * logging backend's configuration, and the time zone data a log formatter's timestamp needs
 * (the JDK's {@code tzdb.dat}). A report written when the process is out of descriptors
 * (a failed accept under {@code EMFILE}) then opens nothing. Loaded at report time instead,
 * one such failure would break logging for the life of the process: the JDK's zone classes
 * fail to initialise once and are never retried.
 */
final class ReportsReady {
    private ReportsReady() {
    }

    /** Loads it all on the first call (the first loop's construction); later calls return at once. */
    static void ensure() {
        Once.loaded();
    }

    /** The JVM runs a class's initialiser once: this one's is the loading. */
    private static final class Once {
        static {
            load();
        }

        static void loaded() {
        }
    }

    private static void load() {
        try {
            System.getLogger("io.jasyncio.loop").isLoggable(System.Logger.Level.ERROR); // binds and configures the backend
            // what java.util.logging's SimpleFormatter does with each record's time, zone name included
            String.format(Locale.getDefault(Locale.Category.FORMAT), "%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp %1$tZ",
                    ZonedDateTime.now());
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable alreadyOutOfFiles) {
            // nothing to do better here: the report itself falls back to plain writes to System.err
        }
    }
}
