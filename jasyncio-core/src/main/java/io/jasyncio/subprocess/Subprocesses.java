package io.jasyncio.subprocess;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * asyncio's subprocess functions for a given loop: the protocol level ({@code loop.subprocess_exec},
 * {@code loop.subprocess_shell}) and the streams level ({@code create_subprocess_exec},
 * {@code create_subprocess_shell}); {@link io.jasyncio.Asyncio} offers the latter on the running
 * loop. Call them on the loop thread (from a task): the child is started there, as asyncio does.
 */
public final class Subprocesses {
    private Subprocesses() {
    }

    /**
     * Starts {@code argv} (program first) with a protocol from {@code protocolFactory}; its
     * connectionMade has run when this returns. Fails as {@link ProcessBuilder#start()} does
     * (an {@code IOException} when the program cannot be run).
     */
    public static <P extends SubprocessProtocol> SubprocessConnection<P> subprocessExec(
            EventLoop loop, Supplier<P> protocolFactory, List<String> argv, SubprocessOptions options) throws IOException {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv must name a program");
        }
        P protocol = protocolFactory.get();
        ChildPipes.Started child = ChildPipes.start(argv, options);
        return new SubprocessConnection<>(ChildProcessTransport.connect(loop, child, protocol), protocol);
    }

    /** As {@link #subprocessExec}, running {@code cmd} with {@code /bin/sh -c}. */
    public static <P extends SubprocessProtocol> SubprocessConnection<P> subprocessShell(
            EventLoop loop, Supplier<P> protocolFactory, String cmd, SubprocessOptions options) throws IOException {
        return subprocessExec(loop, protocolFactory, shell(cmd), options);
    }

    /** Starts {@code argv} (program first) with its piped streams as stream readers and a writer. */
    public static Subprocess createSubprocessExec(EventLoop loop, List<String> argv, SubprocessOptions options)
            throws IOException {
        SubprocessConnection<SubprocessStreamProtocol> c = subprocessExec(loop,
                () -> new SubprocessStreamProtocol(loop, options.limit()), argv, options);
        return new Subprocess(loop, c.transport(), c.protocol());
    }

    /** As {@link #createSubprocessExec}, running {@code cmd} with {@code /bin/sh -c}. */
    public static Subprocess createSubprocessShell(EventLoop loop, String cmd, SubprocessOptions options)
            throws IOException {
        return createSubprocessExec(loop, shell(cmd), options);
    }

    /**
     * How children's pipes reach the loop here: {@code "direct"} (the child writes into the pipe
     * the loop watches) or {@code "pumped"} (a virtual thread per pipe copies between the JDK's
     * pipe and the one the loop watches), as chosen when {@code -Djasyncio.subprocess.pipes} does
     * not force one: direct where we can learn a pipe's fd numbers (from the JDK, or else from
     * {@code /proc/self/fd}).
     */
    public static String defaultPipeWiring() {
        return ChildPipes.directPossible() == null ? "direct" : "pumped";
    }

    /** {@code program} then {@code args}, as one argv. */
    public static List<String> argv(String program, String... args) {
        List<String> argv = new ArrayList<>(args.length + 1);
        argv.add(program);
        argv.addAll(List.of(args));
        return argv;
    }

    private static List<String> shell(String cmd) {
        return List.of("/bin/sh", "-c", cmd);
    }
}
