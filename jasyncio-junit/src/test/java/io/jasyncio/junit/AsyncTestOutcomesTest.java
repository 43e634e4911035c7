package io.jasyncio.junit;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.TimeoutException;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

/**
 * What {@link AsyncTest} reports, seen from outside: each test runs sample test classes through
 * the JUnit Platform's test kit and checks which passed, which failed, and with what. The samples
 * are {@link Sample}s: run by themselves, they are skipped.
 */
@Timeout(60)
class AsyncTestOutcomesTest {

    // =========================================================================================
    // Failures of the body
    // =========================================================================================

    @Sample
    static class FailingBodies {
        @AsyncTest
        void throwsACheckedExceptionAfterAnAwait() throws IOException {
            sleep(0.01);
            throw new IOException("disk on fire");
        }

        @AsyncTest
        void failsAnAssertionInASubtask() {
            Task<Void> check = createTask(() -> {
                sleep(0.01);
                assertEquals(1, 2, "subtask's check");
            });
            await(check);
        }

        @AsyncTest
        void isCancelledBySomeoneElse(EventLoop loop) {
            Task<?> self = io.jasyncio.Asyncio.currentTask();
            loop.callLater(0.01, () -> self.cancel("not by the timeout"));
            sleep(5);
        }

        @AsyncTest(timeout = 0)
        void hasANonsenseTimeout() {
        }
    }

    @Test
    void theBodysOwnExceptionFailsTheTest() {
        Throwable failure = onlyFailure(run(FailingBodies.class, "throwsACheckedExceptionAfterAnAwait"));
        assertInstanceOf(IOException.class, failure);
        assertEquals("disk on fire", failure.getMessage());
        assertTrue(mentions(failure, "throwsACheckedExceptionAfterAnAwait"), "the stack shows the test method");
    }

    @Test
    void anAwaitedSubtasksFailureFailsTheTestUnchanged() {
        Throwable failure = onlyFailure(run(FailingBodies.class, "failsAnAssertionInASubtask"));
        assertInstanceOf(AssertionFailedError.class, failure);
        assertTrue(failure.getMessage().startsWith("subtask's check"), failure.getMessage());
    }

    @Test
    void aCancellationFromElsewhereIsReportedAsItIs() {
        Throwable failure = onlyFailure(run(FailingBodies.class, "isCancelledBySomeoneElse"));
        assertInstanceOf(CancelledError.class, failure);
        assertEquals("not by the timeout", failure.getMessage());
    }

    @Test
    void aTimeoutOfZeroIsRefused() {
        Throwable failure = onlyFailure(run(FailingBodies.class, "hasANonsenseTimeout"));
        assertInstanceOf(IllegalArgumentException.class, failure);
        assertTrue(failure.getMessage().contains("timeout must be > 0"), failure.getMessage());
    }

    // =========================================================================================
    // Timeouts
    // =========================================================================================

    @Sample
    static class PendingBodies {
        static volatile boolean cleanedUp;

        @AsyncTest(timeout = 0.2)
        void awaitsAFutureNobodyCompletes(EventLoop loop) {
            Future<String> never = loop.createFuture();
            try {
                await(never);
            } finally {
                cleanedUp = true;
            }
        }

        @AsyncTest(timeout = 0.2)
        void awaitsATaskThatAwaitsAFutureNobodyCompletes(EventLoop loop) {
            Future<String> never = loop.createFuture();
            Task<String> worker = createTask(() -> await(never), "worker");
            await(worker);
        }

        @AsyncTest(timeout = 0.2)
        void swallowsItsCancellation() {
            while (true) {
                try {
                    sleep(0.05);
                } catch (CancelledError ignored) {
                    // the classic bug: carry on as if nothing happened
                }
            }
        }

        @AsyncTest
        @Timeout(value = 200, unit = TimeUnit.MILLISECONDS)
        void blocksTheLoopThread() throws InterruptedException {
            Thread.sleep(30_000); // the loop's timer cannot fire: JUnit's @Timeout interrupts
        }
    }

    @Sample
    static class WarmUpBodies {
        /** A library whose static initialiser takes 300 ms in its first use (Jackson's ObjectMapper: 0.13-0.51 s). */
        static final class HeavyLibrary {
            static final int READY;

            static {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                READY = 1;
            }
        }

        @AsyncTest
        void firstUseOfAHeavyLibrary() {
            assertEquals(1, HeavyLibrary.READY);
        }
    }

    /** The doctor's rule (WarmUp): class initialisation in a step is the JVM warming up, not a held loop. */
    @Test
    void aLibrarysStaticInitialiserInTheFirstStepIsNotReportedAsAHeldLoop() {
        Events events = run(WarmUpBodies.class, "firstUseOfAHeavyLibrary");
        assertEquals(1, events.succeeded().count());
        assertEquals(List.of(), logged, "nothing logged at INFO or above");
    }

    @Test
    void aPendingTestIsCancelledAtItsTimeoutAndSaysWhatItAwaited() {
        PendingBodies.cleanedUp = false;
        Throwable failure = onlyFailure(run(PendingBodies.class, "awaitsAFutureNobodyCompletes"));
        assertInstanceOf(TimeoutException.class, failure); // jasyncio's, as timeout() throws
        assertTrue(failure.getMessage().startsWith(
                "awaitsAFutureNobodyCompletes() timed out after 0.2 seconds; it was awaiting <Future pending"),
                failure.getMessage());
        assertInstanceOf(CancelledError.class, failure.getCause());
        assertTrue(mentions(failure.getCause(), "awaitsAFutureNobodyCompletes"),
                "the cause's stack shows the await the test was stuck in");
        assertTrue(PendingBodies.cleanedUp, "the cancellation ran the test's finally block");
    }

    @Test
    void theTimeoutMessageFollowsTheChainOfAwaitedTasks() {
        Throwable failure = onlyFailure(run(PendingBodies.class, "awaitsATaskThatAwaitsAFutureNobodyCompletes"));
        assertInstanceOf(TimeoutException.class, failure);
        String message = failure.getMessage();
        assertTrue(message.contains("it was awaiting <Task pending name='worker'"), message);
        assertTrue(message.contains("which was awaiting <Future pending"), message);
    }

    @Test
    void aTestThatSwallowsItsCancellationStillFailsAndDoesNotHang() {
        Throwable failure = onlyFailure(run(PendingBodies.class, "swallowsItsCancellation"));
        assertInstanceOf(TimeoutException.class, failure);
        assertTrue(failure.getMessage().contains("did not end within 1 second of being cancelled"), failure.getMessage());
    }

    @Test
    void junitsOwnTimeoutInterruptsABodyThatBlocksTheLoop() {
        Throwable failure = onlyFailure(run(PendingBodies.class, "blocksTheLoopThread"));
        assertEquals(1, loggedContaining("PendingBodies.blocksTheLoopThread() created at"), "debug mode's slow step: " + logged);
        assertInstanceOf(java.util.concurrent.TimeoutException.class, failure); // JUnit's own
        assertTrue(failure.getMessage().contains("blocksTheLoopThread() timed out after 200 milliseconds"), failure.getMessage());
    }

    // =========================================================================================
    // Errors the loop's exception handler received
    // =========================================================================================

    @Sample
    static class LoopErrorBodies {
        @AsyncTest
        void aCallbackFails(EventLoop loop) {
            loop.callSoon(() -> {
                throw new IllegalStateException("callback broke");
            });
            sleep(0.01);
        }

        @AsyncTest(failOnLoopErrors = false)
        void aCallbackFailsOnPurpose(EventLoop loop) {
            loop.callSoon(() -> {
                throw new IllegalStateException("expected");
            });
            sleep(0.01);
        }

        @AsyncTest
        void failsItselfAndACallbackFails(EventLoop loop) {
            loop.callSoon(() -> {
                throw new IllegalStateException("callback broke");
            });
            sleep(0.01);
            throw new UnsupportedOperationException("the test's own failure");
        }

        @AsyncTest
        void leavesATaskThatFailsWhenCancelled() {
            createTask(() -> {
                try {
                    sleep(60);
                } catch (CancelledError e) {
                    throw new IllegalStateException("cleanup broke");
                }
            });
            sleep(0.01);
        }
    }

    @Test
    void errorsTheLoopReceivedFailTheTestAndAreListed() {
        Throwable failure = onlyFailure(run(LoopErrorBodies.class, "aCallbackFails"));
        assertEquals(1, loggedContaining("Exception in callback"), logged.toString());
        assertInstanceOf(AssertionFailedError.class, failure);
        String message = failure.getMessage();
        assertTrue(message.startsWith("the event loop's exception handler received 1 error during aCallbackFails"), message);
        assertTrue(message.contains("Exception in callback"), message);
        assertTrue(message.contains("java.lang.IllegalStateException: callback broke"), message);
        assertEquals("callback broke", failure.getSuppressed()[0].getMessage(), "the error itself, with its stack");
    }

    @Test
    void aTestCanOptOutOfFailingOnLoopErrors() {
        Events events = run(LoopErrorBodies.class, "aCallbackFailsOnPurpose");
        assertEquals(1, events.succeeded().count());
        assertEquals(0, events.failed().count());
        assertEquals(1, loggedContaining("Exception in callback"), "the default handler still logs it: " + logged);
    }

    @Test
    void theTestsOwnFailureComesFirstWithLoopErrorsAttached() {
        Throwable failure = onlyFailure(run(LoopErrorBodies.class, "failsItselfAndACallbackFails"));
        assertEquals(1, loggedContaining("Exception in callback"), logged.toString());
        assertInstanceOf(UnsupportedOperationException.class, failure);
        assertEquals(1, failure.getSuppressed().length);
        assertTrue(failure.getSuppressed()[0].getMessage().contains("callback broke"));
    }

    @Test
    void aTaskThatFailsDuringShutdownFailsTheTest() {
        Throwable failure = onlyFailure(run(LoopErrorBodies.class, "leavesATaskThatFailsWhenCancelled"));
        assertEquals(1, loggedContaining("unhandled exception during Asyncio.run() shutdown"), logged.toString());
        assertInstanceOf(AssertionFailedError.class, failure);
        assertTrue(failure.getMessage().contains("unhandled exception during Asyncio.run() shutdown"), failure.getMessage());
        assertTrue(failure.getMessage().contains("cleanup broke"), failure.getMessage());
    }

    // =========================================================================================
    // One fresh loop per invocation, shared with the lifecycle methods, closed after
    // =========================================================================================

    @Sample
    static class LifecycleRecorder {
        static final List<String> log = new ArrayList<>();
        static final List<EventLoop> loops = new ArrayList<>();
        static final List<Task<?>> leftovers = new ArrayList<>();

        @BeforeEach
        void setUp(EventLoop loop) {
            sleep(0);
            log.add("before");
            loops.add(loop);
        }

        @AsyncTest
        void first(EventLoop loop) {
            log.add("first");
            loops.add(loop);
            leftovers.add(createTask(() -> sleep(60), "leftover"));
        }

        @AsyncTest
        void second(EventLoop loop) {
            log.add("second");
            loops.add(loop);
        }

        @AfterEach
        void tearDown(EventLoop loop) {
            sleep(0);
            log.add("after");
            loops.add(loop);
        }
    }

    @Test
    void eachTestGetsAFreshLoopSharedWithItsLifecycleMethodsAndClosedAfter() {
        LifecycleRecorder.log.clear();
        LifecycleRecorder.loops.clear();
        LifecycleRecorder.leftovers.clear();
        Events events = run(LifecycleRecorder.class);
        assertEquals(2, events.succeeded().count());
        assertEquals(0, events.failed().count());

        List<String> log = LifecycleRecorder.log;
        List<EventLoop> loops = LifecycleRecorder.loops;
        assertEquals(6, log.size(), log.toString());
        for (int test = 0; test < 2; test++) {
            assertEquals("before", log.get(3 * test));
            assertEquals("after", log.get(3 * test + 2));
            assertSame(loops.get(3 * test), loops.get(3 * test + 1), "the test runs on its @BeforeEach's loop");
            assertSame(loops.get(3 * test), loops.get(3 * test + 2), "the @AfterEach runs on the test's loop");
        }
        assertNotSame(loops.get(0), loops.get(3), "each test has its own loop");
        assertTrue(loops.stream().allMatch(EventLoop::isClosed), "every loop is closed after its test");
        assertTrue(LifecycleRecorder.leftovers.getFirst().isCancelled(), "a task left pending is cancelled at the end");
    }

    // =========================================================================================
    // @OnEveryLoop
    // =========================================================================================

    @Sample
    @OnEveryLoop
    static class OnEveryLoopSample {
        static final List<EventLoop> loops = new ArrayList<>();

        @AsyncTest
        void runs(EventLoop loop) {
            sleep(0.001);
            loops.add(loop);
        }

        @Nested
        class Inner {
            @AsyncTest
            void runsToo(EventLoop loop) {
                sleep(0.001);
                loops.add(loop);
            }
        }
    }

    @Test
    void onEveryLoopRunsEachTestOncePerAvailableLoop() {
        OnEveryLoopSample.loops.clear();
        Events events = run(OnEveryLoopSample.class);
        List<String> names = EventLoops.availableNames();
        assertEquals(2 * names.size(), events.succeeded().count(), "both tests, the nested one too, on every loop");
        assertEquals(0, events.failed().count());
        List<String> onEach = names.stream().map(n -> "on " + n).toList();
        assertEquals(onEach, events.started().map(e -> e.getTestDescriptor().getDisplayName()).distinct().toList());
        assertEquals(names.size(), OnEveryLoopSample.loops.stream().map(Object::getClass).distinct().count(),
                "the invocations ran on every implementation");
        assertEquals(2 * names.size(), OnEveryLoopSample.loops.stream().distinct().count(), "each on a fresh loop");
    }

    @Test
    void onEveryLoopKeepsOnlyTheLoopsTheJvmIsToldToTest() {
        OnEveryLoopSample.loops.clear();
        String previous = System.getProperty("jasyncio.test.loops");
        try {
            System.setProperty("jasyncio.test.loops", "nio");
            Events events = run(OnEveryLoopSample.class);
            assertEquals(List.of("on nio"), events.started().map(e -> e.getTestDescriptor().getDisplayName()).distinct().toList());
            assertEquals(2, events.succeeded().count());

            System.setProperty("jasyncio.test.loops", "nio,no-such-loop");
            Events refused = EngineTestKit.engine("junit-jupiter").configurationParameter(Sample.RUN_SAMPLES, "true")
                    .selectors(selectClass(OnEveryLoopSample.class)).execute().allEvents();
            Throwable failure = refused.failed().list().getFirst().getRequiredPayload(TestExecutionResult.class)
                    .getThrowable().orElseThrow();
            assertTrue(failure.getMessage().contains("'no-such-loop' loop, which cannot run here"), failure.getMessage());
        } finally {
            if (previous == null) {
                System.clearProperty("jasyncio.test.loops");
            } else {
                System.setProperty("jasyncio.test.loops", previous);
            }
        }
    }

    // =========================================================================================

    /** What the library logged during the last sample run: captured, so a passing run prints nothing. */
    private static List<String> logged = List.of();

    private static Events run(Class<?> sample) {
        return captured(() -> EngineTestKit.engine("junit-jupiter").configurationParameter(Sample.RUN_SAMPLES, "true")
                .selectors(selectClass(sample)).execute().testEvents());
    }

    private static Events run(Class<?> sample, String method) {
        String parameters = Arrays.stream(sample.getDeclaredMethods())
                .filter(m -> m.getName().equals(method)).findFirst().orElseThrow()
                .getParameterCount() == 1 ? EventLoop.class.getName() : "";
        return captured(() -> EngineTestKit.engine("junit-jupiter").configurationParameter(Sample.RUN_SAMPLES, "true")
                .selectors(selectMethod(sample.getName(), method, parameters)).execute().testEvents());
    }

    private static Events captured(java.util.function.Supplier<Events> sampleRun) {
        try (io.jasyncio.debug.LogCapture log = new io.jasyncio.debug.LogCapture("io.jasyncio")) {
            Events events = sampleRun.get();
            logged = log.messages();
            return events;
        }
    }

    /** The library's log records of the last sample run that contain {@code text}. */
    private static long loggedContaining(String text) {
        return logged.stream().filter(m -> m != null && m.contains(text)).count();
    }

    /** The failure of the one test that ran, which must have failed. */
    private static Throwable onlyFailure(Events events) {
        List<Event> failed = events.failed().list();
        assertEquals(1, events.started().count(), "tests started");
        assertEquals(1, failed.size(), "tests failed");
        return failed.getFirst().getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    private static boolean mentions(Throwable t, String methodName) {
        return Arrays.stream(t.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals(methodName));
    }
}
