package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.LoopsUnderTest;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Runner;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** Shared test plumbing: run a body on a named loop with a deadline, capture reported errors. */
public final class NetTesting {
    private NetTesting() {
    }

    /**
     * The thread that stands for {@code loop}'s turn: the loop's own thread when called on the
     * loop, in a callback or in a task body (the threads engine runs a body on a thread of its
     * own, but only in the loop's turn, and the body finds the loop as its running loop); else
     * the calling thread. What "it ran on the loop thread" means on every task engine.
     */
    public static Thread turnOf(EventLoop loop) {
        return EventLoops.runningLoopOrNull() == loop ? loop.thread() : Thread.currentThread();
    }

    /**
     * Runs {@code body} as a task on a fresh loop named {@code loopName}; cancels it after {@code seconds}.
     * An assertion that fails in a callback (a protocol's, a server's handler) reaches the loop's
     * exception handler, not the test: it is kept and thrown here at the end.
     */
    public static <T> T run(String loopName, double seconds, Coroutine<T> body) {
        List<AssertionError> failedInCallbacks = Collections.synchronizedList(new ArrayList<>());
        T result = null;
        try (Runner runner = new Runner(false, loopName)) {
            result = runner.run(() -> {
                EventLoop loop = EventLoops.getRunningLoop();
                loop.setExceptionHandler((l, context) -> {
                    if (context.get("exception") instanceof AssertionError failure) {
                        failedInCallbacks.add(failure);
                    }
                    l.defaultExceptionHandler(context);
                });
                Task<T> task = Tasks.create(loop, body, "test body", null);
                TimerHandle deadline = loop.callLater(seconds, () -> task.cancel("test deadline of " + seconds + " s passed"));
                try {
                    return Tasks.await(task);
                } finally {
                    deadline.cancel();
                }
            });
        } catch (Throwable bodyFailure) {
            if (failedInCallbacks.isEmpty()) {
                throw bodyFailure;
            }
            failedInCallbacks.add(new AssertionError("and then the test body failed", bodyFailure));
        }
        if (!failedInCallbacks.isEmpty()) { // the first is the cause, whatever the body saw after it
            AssertionError first = failedInCallbacks.getFirst();
            failedInCallbacks.subList(1, failedInCallbacks.size()).forEach(first::addSuppressed);
            throw first;
        }
        return result;
    }

    /** Runs {@code body} on each available loop in turn (for seeded property cases, already parameterized by seed). */
    static void onEveryLoop(double seconds, Coroutine<?> body) {
        for (String loop : LoopsUnderTest.names()) {
            run(loop, seconds, body);
        }
    }

    /** Collects what the running loop reports to its exception handler. */
    public static List<Map<String, Object>> captureErrors() {
        List<Map<String, Object>> errors = Collections.synchronizedList(new ArrayList<>());
        EventLoops.getRunningLoop().setExceptionHandler((loop, context) -> errors.add(context));
        return errors;
    }

    /** Closes {@code server} and waits until it and every connection it accepted are closed. */
    static void closeServer(Server server) {
        server.close();
        server.waitClosed();
    }

    /** The usual end of a streams test: close the client connection and wait, then the server. */
    static void closeAll(StreamConnection client, Server server) {
        client.writer().close();
        client.writer().waitClosed();
        closeServer(server);
    }

    static int port(Server server) {
        return ((InetSocketAddress) server.addresses().getFirst()).getPort();
    }

    public static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        java.util.Random r = new java.util.Random(seed);
        r.nextBytes(b);
        return b;
    }

    /** Echoes every byte back from dataReceived, as the echo server does. */
    static final class EchoProtocol implements Protocol {
        Transport transport;

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            transport.write(data);
        }
    }

    /** A client protocol that records what it gets and completes futures at EOF and at the end. */
    static final class RecordingProtocol implements Protocol {
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        final io.jasyncio.loop.Future<Void> made;
        final io.jasyncio.loop.Future<Throwable> lost;
        final io.jasyncio.loop.Future<Void> eof;
        final boolean keepOpenOnEof;
        Transport transport;
        int expected = -1;
        final io.jasyncio.loop.Future<Void> gotExpected;

        RecordingProtocol(EventLoop loop, boolean keepOpenOnEof) {
            this.made = loop.createFuture();
            this.lost = loop.createFuture();
            this.eof = loop.createFuture();
            this.gotExpected = loop.createFuture();
            this.keepOpenOnEof = keepOpenOnEof;
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
            made.setResult(null);
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            received.writeBytes(b);
            if (expected >= 0 && received.size() >= expected && !gotExpected.isDone()) {
                gotExpected.setResult(null);
            }
        }

        @Override
        public boolean eofReceived() {
            eof.setResult(null);
            return keepOpenOnEof;
        }

        @Override
        public void connectionLost(Throwable exc) {
            lost.setResult(exc);
        }
    }
}
