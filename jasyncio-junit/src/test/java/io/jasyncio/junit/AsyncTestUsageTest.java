package io.jasyncio.junit;

import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.LoopClock;
import io.jasyncio.task.Task;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The extension as its users write tests: these pass, and each checks one promise of {@link AsyncTest}. */
@Timeout(30)
class AsyncTestUsageTest {
    private static final ContextVar<String> USER = ContextVar.of("user");

    private EventLoop setupLoop;
    private Task<String> startedInSetup;

    @BeforeEach
    void setUp(EventLoop loop) {
        setupLoop = loop;
        sleep(0.001); // setup may await too
        USER.set("alice");
        startedInSetup = createTask(() -> sleep(0.01, "ready"));
    }

    @AfterEach
    void tearDown(EventLoop loop) {
        assertSame(setupLoop, loop, "@AfterEach runs on the test's loop");
        assertNotNull(currentTask(), "@AfterEach runs as a task");
        sleep(0); // and may await
    }

    @AsyncTest
    void bodyRunsAsTheMainTaskAndCanAwait() {
        assertNotNull(currentTask());
        Task<Integer> one = createTask(() -> sleep(0.01, 1));
        Task<Integer> two = createTask(() -> sleep(0.02, 2));
        assertEquals(List.of(1, 2), await(gather(one, two)));
    }

    /** Reports about the main task (a slow first step, a timeout) name the test, not the extension's plumbing. */
    @AsyncTest
    void theMainTaskIsNamedAfterTheTestMethod() {
        assertEquals("AsyncTestUsageTest.theMainTaskIsNamedAfterTheTestMethod()", currentTask().coroutineName());
        assertTrue(currentTask().toString().contains(" coro=AsyncTestUsageTest.theMainTaskIsNamedAfterTheTestMethod()"),
                currentTask().toString());
    }

    @AsyncTest
    void theRunningLoopIsInjected(EventLoop loop) {
        assertSame(getRunningLoop(), loop);
        assertSame(setupLoop, loop, "@BeforeEach ran on the test's loop");
    }

    @AsyncTest
    void whatSetupStartedKeepsRunningIntoTheTest() {
        assertEquals("ready", await(startedInSetup));
    }

    @AsyncTest
    void contextVariablesSetInSetupAreSeenByTheTest() {
        assertEquals("alice", USER.get());
    }

    @AsyncTest
    void debugModeIsOnByDefault(EventLoop loop) {
        assertTrue(loop.getDebug());
    }

    @AsyncTest(debug = false)
    void debugModeCanBeTurnedOff(EventLoop loop) {
        assertFalse(loop.getDebug());
    }

    /** A suite's own flavour of the annotation: settings in one place. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @AsyncTest(debug = false, timeout = 30)
    @interface QuietAsyncTest {
    }

    @QuietAsyncTest
    void aComposedAnnotationCarriesItsSettings(EventLoop loop) {
        assertFalse(loop.getDebug());
        assertNotNull(currentTask());
    }

    @AsyncTest(timeout = 5)
    void aFutureSetFromACallbackWakesTheTest(EventLoop loop) {
        Future<String> answer = loop.createFuture();
        loop.callLater(0.01, () -> answer.setResult("42"));
        assertEquals("42", await(answer));
    }

    @AsyncTest
    void theClockIsTheMonotonicOneUnlessVirtualTimeIsAsked(LoopClock clock) {
        assertSame(LoopClock.monotonic(), clock);
    }
}
