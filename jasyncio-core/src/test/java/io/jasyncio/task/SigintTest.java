package io.jasyncio.task;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.testing.ChildJvm;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * asyncio 3.11's Ctrl-C, in a child JVM sent a real {@code kill -INT}: the first SIGINT cancels
 * the main task, whose cleanup runs, and {@code Asyncio.run} throws KeyboardInterrupt; a second
 * one ends the process even while the loop thread is stuck.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class SigintTest {

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theFirstSigintCancelsTheMainTaskAndRunThrowsKeyboardInterrupt(String loopName) throws Exception {
        try (ChildJvm child = interruptedChild(loopName, "cancel")) {
            child.awaitLine("main cancelled on its loop thread: true", 10);
            child.awaitLine("KeyboardInterrupt", 10);
            assertEquals(3, child.exitValue(10), child.output());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aSecondSigintEndsTheProcessWhileTheLoopIsStuck(String loopName) throws Exception {
        try (ChildJvm child = interruptedChild(loopName, "stubborn")) {
            child.awaitLine("ignoring the cancellation, holding the loop", 10);
            child.kill("INT");
            assertEquals(130, child.exitValue(10), "the JVM's own SIGINT exit; output: " + child.output());
            assertTrue(!child.output().contains("stuck loop finished"), child.output());
        }
    }

    /** As asyncio installs its handler only over the default one: an application's own SIGINT handler stays. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void anApplicationsOwnSigintHandlerIsLeftAlone(String loopName) throws Exception {
        try (ChildJvm child = interruptedChild(loopName, "own-handler")) {
            child.awaitLine("the application's handler got SIGINT", 10);
            child.awaitLine("run returned", 10);
            assertEquals(0, child.exitValue(10), child.output());
        }
    }

    /** A child JVM running {@link Probe} in {@code mode}, once its main task is ready, sent its first SIGINT. */
    private static ChildJvm interruptedChild(String loopName, String mode) throws Exception {
        ChildJvm child = new ChildJvm(loopName, Probe.class.getName(), mode);
        try {
            child.awaitLine("ready", 30);
            child.kill("INT");
            return child;
        } catch (Throwable t) {
            child.close();
            throw t;
        }
    }

    /**
     * The child: a main task that sleeps; "stubborn" swallows the cancellation and holds the loop
     * thread; "own-handler" installs its own SIGINT handler first and returns once that ran.
     */
    public static final class Probe {
        @SuppressWarnings("sunapi")
        public static void main(String[] args) {
            boolean stubborn = args[0].equals("stubborn");
            boolean ownHandler = args[0].equals("own-handler");
            CompletableFuture<Void> ownHandlerRan = new CompletableFuture<>();
            if (ownHandler) {
                sun.misc.Signal.handle(new sun.misc.Signal("INT"), s -> {
                    say("the application's handler got SIGINT");
                    ownHandlerRan.complete(null);
                });
            }
            try {
                Asyncio.run(() -> {
                    Thread loopThread = Thread.currentThread();
                    say("ready");
                    try {
                        if (ownHandler) { // until the signal came (however late on a loaded machine), then return
                            Asyncio.waitFor(() -> Asyncio.await(ownHandlerRan), 30.0);
                        } else {
                            Asyncio.sleep(60);
                        }
                    } catch (CancelledError e) {
                        if (!stubborn) {
                            say("main cancelled on its loop thread: " + (Thread.currentThread() == loopThread));
                            throw e;
                        }
                        say("ignoring the cancellation, holding the loop");
                        long end = System.nanoTime() + 30_000_000_000L;
                        while (System.nanoTime() < end) {
                            Thread.onSpinWait();
                        }
                        say("stuck loop finished");
                    }
                });
                say("run returned");
            } catch (KeyboardInterrupt e) {
                say("KeyboardInterrupt");
                System.exit(3);
            }
        }

        private static void say(String line) {
            System.out.println(line);
            System.out.flush();
        }
    }
}
