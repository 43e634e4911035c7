package io.jasyncio.subprocess;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Opens a pipe and finds its two descriptor numbers in {@code /proc/self/fd} (Linux), for when
 * {@link io.jasyncio.loop.spi.ChannelFds} cannot ask the JDK (java.base does not export {@code sun.nio.ch}). The new
 * pipe is the pair of descriptors that appeared with it, sharing one {@code pipe:[inode]}, one
 * read-only and one write-only; a few bytes written into it, counted (not read) through a fresh
 * descriptor of the candidate's read end, confirm it is ours and not a pipe another thread opened
 * meanwhile. Costs two listings of {@code /proc/self/fd} per pipe: only the path without the
 * export takes it.
 */
final class ProcPipeFds {
    private static final Path FDS = Path.of("/proc/self/fd");
    private static final Path FD_INFO = Path.of("/proc/self/fdinfo");
    private static final int MARKER = 3;

    private ProcPipeFds() {
    }

    /** Whether this system lists a process's descriptors where {@link #open()} looks. */
    static boolean available() {
        return Files.isDirectory(FDS) && Files.isDirectory(FD_INFO);
    }

    /** Synchronized: two pipes opened at once by this class would be two candidates each time. */
    static synchronized NumberedPipe open() throws IOException {
        Set<String> before = descriptors();
        Pipe pipe = Pipe.open();
        try {
            Map<String, List<Integer>> newPipes = new HashMap<>();
            for (String entry : descriptors()) {
                if (!before.contains(entry)) {
                    int at = entry.indexOf('>');
                    String target = entry.substring(at + 1);
                    if (target.startsWith("pipe:")) {
                        newPipes.computeIfAbsent(target, t -> new ArrayList<>()).add(Integer.parseInt(entry.substring(0, at)));
                    }
                }
            }
            for (List<Integer> pair : newPipes.values()) {
                if (pair.size() == 2) {
                    int source = readOnly(pair.get(0)) ? pair.get(0) : pair.get(1);
                    int sink = source == pair.get(0) ? pair.get(1) : pair.get(0);
                    if (readOnly(source) && !readOnly(sink) && isOurs(pipe, source)) {
                        return new NumberedPipe(pipe, source, sink);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(pipe);
            throw new IOException("cannot find the descriptors of a new pipe in " + FDS, e);
        }
        closeQuietly(pipe);
        throw new IOException("cannot find the descriptors of a new pipe in " + FDS);
    }

    /** Every open descriptor as "number>target": a number reused for another file meanwhile reads as new. */
    private static Set<String> descriptors() throws IOException {
        Set<String> entries = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
            for (Path fd : fds) {
                try {
                    entries.add(fd.getFileName() + ">" + Files.readSymbolicLink(fd));
                } catch (IOException closedMeanwhile) {
                    // not ours to find
                }
            }
        }
        return entries;
    }

    /** Whether descriptor {@code fd} was opened read-only (the access mode, octal "flags:" & 3, is 0). */
    private static boolean readOnly(int fd) throws IOException {
        for (String line : Files.readAllLines(FD_INFO.resolve(Integer.toString(fd)))) {
            if (line.startsWith("flags:")) {
                return (Integer.parseInt(line.substring("flags:".length()).trim(), 8) & 3) == 0;
            }
        }
        return false;
    }

    /** Writes a few bytes into our pipe, counts them through {@code sourceFd}, then reads them back out. */
    private static boolean isOurs(Pipe pipe, int sourceFd) throws IOException {
        ByteBuffer marker = ByteBuffer.allocate(MARKER);
        while (marker.hasRemaining()) {
            pipe.sink().write(marker);
        }
        int counted;
        try (FileInputStream probe = new FileInputStream(FDS.resolve(Integer.toString(sourceFd)).toFile())) {
            counted = probe.available();
        }
        marker.clear();
        while (marker.hasRemaining()) {
            pipe.source().read(marker);
        }
        return counted == MARKER;
    }

    private static void closeQuietly(Pipe pipe) {
        try {
            pipe.source().close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            pipe.sink().close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
