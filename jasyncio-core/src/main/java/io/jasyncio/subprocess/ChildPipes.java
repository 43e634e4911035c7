package io.jasyncio.subprocess;

import io.jasyncio.loop.spi.ChannelFds;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a child through {@link ProcessBuilder} so that each of its piped streams is a JDK
 * {@link Pipe} channel on our side, which the loop's poller watches like a socket. Two ways:
 *
 * <ul>
 *   <li><b>direct</b> (when we know a pipe's fd numbers and {@code /dev/fd} exists): we open a
 *   pipe and hand the child its other end as a file, {@code /dev/fd/N}, which the JDK opens in
 *   the parent (a second descriptor of the same pipe) and installs as the child's stream. The
 *   child writes straight into the pipe the loop reads, and so do its own children: as in
 *   asyncio, the pipe ends when the last writer closes it, not when the child exits. The numbers
 *   come from the JDK ({@link ChannelFds}, with the {@code sun.nio.ch} export) or else from
 *   {@code /proc/self/fd} ({@link ProcPipeFds}).</li>
 *   <li><b>pumped</b> (where neither is possible, or with {@code -Djasyncio.subprocess.pipes=pumped}):
 *   the JDK's own pipes ({@link ProcessBuilder.Redirect#PIPE}) and one virtual thread per stream
 *   copying between the JDK's stream and our pipe in blocking calls. The loop still sees only its
 *   pipe channel, so delivery is on the loop thread and flow control is the same: when the loop
 *   stops reading, our pipe fills, the pump blocks, the child's pipe fills and the child blocks.
 *   Its limit: the JDK drains and closes its pipe when the child exits, so what a process the
 *   child started writes after that is lost.</li>
 * </ul>
 */
final class ChildPipes {
    /** The system property that forces a way: {@code direct} or {@code pumped}. */
    static final String MODE_PROPERTY = "jasyncio.subprocess.pipes";
    private static final int PUMP_CHUNK = 64 * 1024;

    private ChildPipes() {
    }

    /** The started child and our ends of its pipes (null where the stream is not piped). */
    record Started(Process process, Pipe.SinkChannel stdin, Pipe.SourceChannel stdout, Pipe.SourceChannel stderr) {
    }

    /** Null when children can get our pipes directly; otherwise why not. */
    static String directPossible() {
        String reason = ChannelFds.unavailableReason();
        if (reason != null && ProcPipeFds.available()) {
            reason = null; // the numbers are found in /proc/self/fd instead
        }
        if (reason == null && !Files.isDirectory(Path.of("/dev/fd"))) {
            reason = "this system has no /dev/fd";
        }
        return reason;
    }

    /** Whether children get our pipes directly (an error if forced and impossible). */
    static boolean direct() {
        String mode = System.getProperty(MODE_PROPERTY, "");
        String reason = directPossible();
        return switch (mode) {
            case "pumped" -> false;
            case "direct" -> {
                if (reason != null) {
                    throw new IllegalStateException("-D" + MODE_PROPERTY + "=direct, but " + reason);
                }
                yield true;
            }
            case "" -> reason == null;
            default -> throw new IllegalArgumentException("-D" + MODE_PROPERTY + " is 'direct' or 'pumped', not '" + mode + "'");
        };
    }

    static Started start(List<String> argv, SubprocessOptions options) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(argv);
        if (options.cwd() != null) {
            builder.directory(options.cwd().toFile());
        }
        if (options.env() != null) {
            builder.environment().clear();
            builder.environment().putAll(options.env());
        }
        builder.redirectInput(options.stdin() == Stdio.DEVNULL ? ProcessBuilder.Redirect.from(new File("/dev/null"))
                : options.stdin() == Stdio.INHERIT ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
        builder.redirectOutput(outputRedirect(options.stdout()));
        if (options.stderr() == Stdio.STDOUT) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(outputRedirect(options.stderr()));
        }
        return direct() ? startDirect(builder, options) : startPumped(builder, options);
    }

    private static ProcessBuilder.Redirect outputRedirect(Stdio stdio) {
        return switch (stdio) {
            case DEVNULL -> ProcessBuilder.Redirect.DISCARD;
            case INHERIT -> ProcessBuilder.Redirect.INHERIT;
            case PIPE -> ProcessBuilder.Redirect.PIPE;
            case STDOUT -> throw new IllegalArgumentException("only stderr can go to STDOUT");
        };
    }

    private static Started startDirect(ProcessBuilder builder, SubprocessOptions options) throws IOException {
        List<Closeable> childEnds = new ArrayList<>();
        List<Closeable> ourEnds = new ArrayList<>();
        try {
            NumberedPipe in = options.stdin() == Stdio.PIPE ? open(childEnds, ourEnds, true) : null;
            NumberedPipe out = options.stdout() == Stdio.PIPE ? open(childEnds, ourEnds, false) : null;
            NumberedPipe err = options.stderr() == Stdio.PIPE ? open(childEnds, ourEnds, false) : null;
            if (in != null) {
                builder.redirectInput(ProcessBuilder.Redirect.from(devFd(in.sourceFd())));
            }
            if (out != null) {
                builder.redirectOutput(ProcessBuilder.Redirect.to(devFd(out.sinkFd())));
            }
            if (err != null) {
                builder.redirectError(ProcessBuilder.Redirect.to(devFd(err.sinkFd())));
            }
            Process process = builder.start();
            ourEnds.clear();
            return new Started(process, in == null ? null : in.pipe().sink(),
                    out == null ? null : out.pipe().source(), err == null ? null : err.pipe().source());
        } finally {
            closeAll(childEnds);   // the child has its own descriptors now: EOF comes when it closes them
            closeAll(ourEnds);     // only when starting failed
        }
    }

    private static NumberedPipe open(List<Closeable> childEnds, List<Closeable> ourEnds, boolean childReads)
            throws IOException {
        NumberedPipe numbered;
        if (ChannelFds.unavailableReason() == null) {
            Pipe pipe = Pipe.open();
            numbered = new NumberedPipe(pipe, ChannelFds.fdOf(pipe.source()), ChannelFds.fdOf(pipe.sink()));
        } else {
            numbered = ProcPipeFds.open();
        }
        Pipe pipe = numbered.pipe();
        childEnds.add(childReads ? pipe.source() : pipe.sink());
        ourEnds.add(childReads ? pipe.sink() : pipe.source());
        return numbered;
    }

    private static File devFd(int fd) {
        return new File("/dev/fd/" + fd);
    }

    private static void closeAll(List<Closeable> closeables) {
        for (Closeable c : closeables) {
            try {
                c.close();
            } catch (IOException ignored) {
                // already gone
            }
        }
    }

    private static Started startPumped(ProcessBuilder builder, SubprocessOptions options) throws IOException {
        Process process = builder.start();
        long pid = process.pid();
        Pipe.SinkChannel stdin = null;
        Pipe.SourceChannel stdout = null;
        Pipe.SourceChannel stderr = null;
        if (options.stdin() == Stdio.PIPE) {
            Pipe pipe = Pipe.open();
            pumpIn(pipe.source(), process.getOutputStream(), "stdin pump of child " + pid);
            stdin = pipe.sink();
        }
        if (options.stdout() == Stdio.PIPE) {
            Pipe pipe = Pipe.open();
            pumpOut(process.getInputStream(), pipe.sink(), "stdout pump of child " + pid);
            stdout = pipe.source();
        }
        if (options.stderr() == Stdio.PIPE) {
            Pipe pipe = Pipe.open();
            pumpOut(process.getErrorStream(), pipe.sink(), "stderr pump of child " + pid);
            stderr = pipe.source();
        }
        return new Started(process, stdin, stdout, stderr);
    }

    /**
     * The child's output into our pipe, until the child's end of the data or until the loop closed
     * its end (the write fails): either way both are closed, so the fds go with the thread.
     */
    private static void pumpOut(InputStream from, Pipe.SinkChannel to, String name) {
        Thread.ofVirtual().name(name).start(() -> {
            try (from; to) {
                byte[] chunk = new byte[PUMP_CHUNK];
                int n;
                while ((n = from.read(chunk)) != -1) {
                    ByteBuffer data = ByteBuffer.wrap(chunk, 0, n);
                    while (data.hasRemaining()) {
                        to.write(data);
                    }
                }
            } catch (IOException ignored) {
                // our end was closed, or the child's stream failed: the pipe ends here either way
            }
        });
    }

    /**
     * Our pipe into the child's stdin, until the loop closed its end (EOF: the child sees EOF) or
     * the child stopped reading (the write fails: closing our source makes the loop's next write
     * fail with EPIPE, as it would on a direct pipe).
     */
    private static void pumpIn(Pipe.SourceChannel from, OutputStream to, String name) {
        Thread.ofVirtual().name(name).start(() -> {
            try (from; to) {
                ByteBuffer chunk = ByteBuffer.allocate(PUMP_CHUNK);
                while (from.read(chunk) != -1) {
                    to.write(chunk.array(), 0, chunk.position());
                    to.flush();
                    chunk.clear();
                }
            } catch (IOException ignored) {
                // the child closed its stdin, or our end was closed: the pipe ends here either way
            }
        });
    }
}
