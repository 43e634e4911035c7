package io.jasyncio.subprocess;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.task.GatheringFuture;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A child process with its pipes as streams: asyncio's {@code asyncio.subprocess.Process},
 * named {@code Subprocess} so as not to be confused with {@link java.lang.Process} (which
 * {@code transport().getExtraInfo("subprocess")} gives). Made by
 * {@link io.jasyncio.Asyncio#createSubprocessExec} and {@code createSubprocessShell}.
 *
 * <p>{@link #returncode()}: the exit status, or {@code -N} when signal N killed the child. The
 * JDK reports a death by signal N as {@code 128 + N}, as shells do; it is turned into {@code -N}
 * when that signal was sent through {@link #sendSignal}, {@link #terminate} or {@link #kill}. A
 * child killed by a signal from elsewhere reads as {@code 128 + N}.
 */
public final class Subprocess {
    /** What {@link #communicate} collected: all of stdout and stderr (null where not piped). */
    public record Output(byte[] stdout, byte[] stderr) {
    }

    private final EventLoop loop;
    private final SubprocessTransport transport;
    private final SubprocessStreamProtocol protocol;

    Subprocess(EventLoop loop, SubprocessTransport transport, SubprocessStreamProtocol protocol) {
        this.loop = loop;
        this.transport = transport;
        this.protocol = protocol;
    }

    /** The child's stdin, or null when it is not {@link Stdio#PIPE}. */
    public StreamWriter stdin() {
        return protocol.stdin();
    }

    /** The child's stdout, or null when it is not {@link Stdio#PIPE}. */
    public StreamReader stdout() {
        return protocol.stdout();
    }

    /** The child's stderr, or null when it is not {@link Stdio#PIPE}. */
    public StreamReader stderr() {
        return protocol.stderr();
    }

    public long pid() {
        return transport.getPid();
    }

    /** Null while the child runs; then its return code (see the class comment for signals). */
    public Integer returncode() {
        return transport.getReturncode();
    }

    public SubprocessTransport transport() {
        return transport;
    }

    /**
     * Coroutine: waits for the child to exit and returns its return code: asyncio's {@code wait()}
     * (named as {@link java.lang.Process#waitFor()}, since {@link Object#wait()} is taken), as of
     * CPython's fix for gh-119710: the exit alone, not the pipes' end.
     * A child that fills a pipe nobody reads never exits: read it, or use {@link #communicate}.
     */
    public int waitFor() {
        return transport.waitForExit();
    }

    /**
     * Coroutine: writes {@code input} (may be null) to stdin and closes it, reads stdout and stderr
     * to their end, all at once, then waits for the exit. A child that stopped reading its stdin
     * (a broken pipe) is not an error here, as in asyncio.
     *
     * <p>Beyond asyncio: when the calling task is cancelled here, the child is killed and its
     * pipes closed (asyncio leaves it running until its transport is garbage collected, which
     * kills it then; Java has no such finalizer). The JDK reaps it; {@link #waitFor()} returns
     * {@code -9} after that.
     */
    public Output communicate(byte[] input) {
        Task<Void> feeding = stdin() != null ? Tasks.create(loop, () -> feedStdin(input), null, null) : null;
        Task<byte[]> out = stdout() != null ? Tasks.create(loop, () -> readToEnd(1, stdout()), null, null) : null;
        Task<byte[]> err = stderr() != null ? Tasks.create(loop, () -> readToEnd(2, stderr()), null, null) : null;
        try {
            Tasks.await(GatheringFuture.gather(false, presentOf(feeding, out, err)));
            waitFor();
        } catch (CancelledError e) {
            transport.close();
            throw e;
        }
        return new Output(out == null ? null : out.result(), err == null ? null : err.result());
    }

    private static List<Future<?>> presentOf(Future<?>... futures) {
        return Arrays.stream(futures).filter(Objects::nonNull).toList();
    }

    private Void feedStdin(byte[] input) {
        StreamWriter stdin = stdin();
        if (input != null) {
            stdin.write(input);
        }
        try {
            stdin.drain();
        } catch (IOException brokenPipe) {
            // the child stopped reading (or exited): communicate ignores it, as asyncio does
        }
        stdin.close();
        return null;
    }

    private byte[] readToEnd(int fd, StreamReader stream) throws IOException {
        byte[] output = stream.read(-1);
        transport.getPipeTransport(fd).close();
        return output;
    }

    /** Sends {@code signal} (see {@link Signals}); nothing once the child exited. */
    public void sendSignal(int signal) {
        transport.sendSignal(signal);
    }

    /** SIGTERM. */
    public void terminate() {
        transport.terminate();
    }

    /** SIGKILL. */
    public void kill() {
        transport.kill();
    }

    @Override
    public String toString() {
        return "<Subprocess " + pid() + ">";
    }
}
