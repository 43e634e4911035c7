package io.jasyncio.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The file descriptors this JVM has open (Linux's /proc/self/fd): what leak tests compare before and after. */
public final class OpenFds {
    private OpenFds() {
    }

    /** How many descriptors are open now (the listing itself holds one while it counts). */
    public static int count() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list /proc/self/fd", e);
        }
    }
}
