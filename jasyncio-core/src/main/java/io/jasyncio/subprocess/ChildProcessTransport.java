package io.jasyncio.subprocess;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.BaseProtocol;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.ReadPipeTransport;
import io.jasyncio.net.Transport;
import io.jasyncio.net.WritePipeTransport;
import io.jasyncio.task.Tasks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A child and its pipes on the loop (asyncio's {@code BaseSubprocessTransport}). Each pipe is a
 * {@link ReadPipeTransport} or {@link WritePipeTransport} whose events are forwarded to the
 * {@link SubprocessProtocol} with the pipe's fd, at once. The child's exit reaches the loop from
 * the JDK's reaper thread, which waits for every child {@link ProcessBuilder} starts: its
 * {@link Process#onExit()} completes there and posts {@link #processExited} with
 * {@code callSoonThreadsafe}. The protocol's {@code connectionLost} comes when the child has
 * exited and every pipe is closed.
 */
final class ChildProcessTransport implements SubprocessTransport {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.subprocess");

    private final EventLoop loop;
    private final Process process;
    private final SubprocessProtocol protocol;
    /** Indexed by fd: the pipe transport, or null when that stream is not piped. */
    private final Transport[] pipes = new Transport[3];
    private final boolean[] pipeOpen = new boolean[3];
    private final List<Future<Integer>> exitWaiters = new ArrayList<>();
    /** The signals we sent while the child ran, one bit each (see {@link ReturnCodes}). */
    private long signalsSent;
    private Integer returncode;
    private boolean closed;
    private boolean finished;

    private ChildProcessTransport(EventLoop loop, Process process, SubprocessProtocol protocol) {
        this.loop = loop;
        this.process = process;
        this.protocol = protocol;
    }

    /**
     * Wraps a started child: the pipes are connected, the protocol's connectionMade runs (before
     * any pipe or exit event), then the pipes are read and the exit watched.
     */
    static ChildProcessTransport connect(EventLoop loop, ChildPipes.Started child, SubprocessProtocol protocol)
            throws IOException {
        ChildProcessTransport t = new ChildProcessTransport(loop, child.process(), protocol);
        try {
            if (child.stdin() != null) {
                t.pipes[0] = new WritePipeTransport(loop, child.stdin(), t.new StdinEvents());
            }
            if (child.stdout() != null) {
                t.pipes[1] = new ReadPipeTransport(loop, child.stdout(), t.new OutputEvents(1));
            }
            if (child.stderr() != null) {
                t.pipes[2] = new ReadPipeTransport(loop, child.stderr(), t.new OutputEvents(2));
            }
            protocol.connectionMade(t);
        } catch (IOException | RuntimeException | Error e) {
            t.close();
            throw e;
        }
        for (int fd = 0; fd < 3; fd++) {
            if (t.pipes[fd] instanceof WritePipeTransport w) {
                t.pipeOpen[fd] = true;
                w.start();
            } else if (t.pipes[fd] instanceof ReadPipeTransport r) {
                t.pipeOpen[fd] = true;
                r.start();
            }
        }
        child.process().onExit().whenComplete((p, e) -> {
            try {
                loop.callSoonThreadsafe(t::processExited);
            } catch (RuntimeException loopClosed) {
                // the loop is gone: nobody is left to tell (the JDK reaped the child anyway)
            }
        });
        return t;
    }

    private void processExited() {
        if (returncode != null) {
            return;
        }
        returncode = ReturnCodes.of(process.exitValue(), signalsSent);
        if (loop.getDebug()) {
            LOG.log(System.Logger.Level.INFO, this + " exited with return code " + returncode);
        }
        protocol.processExited();
        for (Future<Integer> waiter : exitWaiters) {
            if (!waiter.isDone()) {
                waiter.setResult(returncode);
            }
        }
        exitWaiters.clear();
        tryFinish();
    }

    private void pipeConnectionLost(int fd, Throwable exc) {
        pipeOpen[fd] = false;
        protocol.pipeConnectionLost(fd, exc);
        tryFinish();
    }

    private void tryFinish() {
        if (finished || returncode == null) {
            return;
        }
        for (boolean open : pipeOpen) {
            if (open) {
                return;
            }
        }
        finished = true;
        loop.callSoon(() -> protocol.connectionLost(null));
    }

    @Override
    public int waitForExit() {
        if (returncode != null) {
            return returncode;
        }
        Future<Integer> waiter = loop.createFuture();
        exitWaiters.add(waiter);
        return Tasks.await(waiter);
    }

    @Override
    public long getPid() {
        return process.pid();
    }

    @Override
    public Integer getReturncode() {
        return returncode;
    }

    @Override
    public Transport getPipeTransport(int fd) {
        return fd >= 0 && fd < pipes.length ? pipes[fd] : null;
    }

    @Override
    public void sendSignal(int signal) {
        if (returncode == null && Signals.send(process, signal)) {
            signalsSent |= 1L << signal;
        }
    }

    @Override
    public void terminate() {
        sendSignal(Signals.SIGTERM);
    }

    @Override
    public void kill() {
        sendSignal(Signals.SIGKILL);
    }

    /** Closes the pipes, and kills the child if it still runs (as asyncio does). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Transport pipe : pipes) {
            if (pipe != null) {
                pipe.close();
            }
        }
        if (returncode == null && process.isAlive()) {
            if (loop.getDebug()) {
                LOG.log(System.Logger.Level.WARNING, "Close running child process: kill " + this);
            }
            kill();
        }
    }

    @Override
    public boolean isClosing() {
        return closed;
    }

    @Override
    public Object getExtraInfo(String name) {
        return "subprocess".equals(name) ? process : null;
    }

    @Override
    public BaseProtocol getProtocol() {
        return protocol;
    }

    @Override
    public void setProtocol(BaseProtocol protocol) {
        throw new UnsupportedOperationException("a subprocess transport keeps its protocol");
    }

    @Override
    public String toString() {
        return "<ChildProcessTransport pid=" + process.pid()
                + (closed ? " closed" : "")
                + (returncode == null ? " running" : " returncode=" + returncode) + ">";
    }

    /** What the stdin pipe reports: its end, and its flow control (the protocol's pause/resumeWriting). */
    private final class StdinEvents implements BaseProtocol {
        @Override
        public void connectionLost(Throwable exc) {
            pipeConnectionLost(0, exc);
        }

        @Override
        public void pauseWriting() {
            protocol.pauseWriting();
        }

        @Override
        public void resumeWriting() {
            protocol.resumeWriting();
        }
    }

    /** What a stdout or stderr pipe reports, tagged with its fd. */
    private final class OutputEvents implements Protocol {
        private final int fd;

        OutputEvents(int fd) {
            this.fd = fd;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            protocol.pipeDataReceived(fd, data);
        }

        @Override
        public void connectionLost(Throwable exc) {
            pipeConnectionLost(fd, exc);
        }
    }
}
