package io.jasyncio.junit;

import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test method whose body runs as the main task on a fresh event loop, as under
 * {@code Asyncio.run}: {@code await}, {@code sleep} and {@code createTask} work in it.
 *
 * <pre>{@code
 * @AsyncTest
 * void echoes(EventLoop loop) {
 *     Task<String> reply = createTask(() -> sleep(0.01, "pong"));
 *     assertEquals("pong", await(reply));
 * }
 * }</pre>
 *
 * <p>Each invocation gets its own loop, created before the {@code @BeforeEach} methods and closed
 * after the {@code @AfterEach} methods; those run as tasks on the same loop, in the same context,
 * so what setup starts the test can await. When the last of them returns, the tasks still pending
 * are cancelled and the loop closes ({@code Asyncio.run}'s shutdown).
 *
 * <p>The test fails when its body fails (with the body's own exception), when it is still pending
 * after {@link #timeout()} seconds (it is cancelled; the failure names what it was awaiting), or
 * when the loop's exception handler received errors (unless {@link #failOnLoopErrors()} is false).
 * The running loop can be a parameter of the test and lifecycle methods ({@code EventLoop loop}).
 * {@link #virtualTime()} runs them on a clock that skips the waiting for timers.
 * Put {@link OnEveryLoop} on the class to run each test once per loop implementation.
 *
 * <p>The timeout can only fire while the body awaits: a body that blocks the loop thread holds
 * the timer too. JUnit's own {@code @Timeout} interrupts such a body.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(AsyncTestExtension.class)
public @interface AsyncTest {
    /** Seconds the body (and each lifecycle method) may stay pending before it is cancelled and failed. */
    double timeout() default 10;

    /**
     * Debug mode on the loop: a step that holds the loop over 0.1 s is logged while it holds it, by
     * a {@link io.jasyncio.debug.Watchdog}, with the task and the frame that hold it (class loading
     * and initialisation, the JVM warming up, is not counted: {@link io.jasyncio.debug.WarmUp}, the
     * doctor's rule), and futures remember where they were created. On by default, as tests are
     * where you want to hear about them.
     */
    boolean debug() default true;

    /**
     * Fail the test when the loop's exception handler received errors during it (a failing
     * callback, a task that failed during shutdown). False leaves errors to the default handler,
     * for tests that provoke them on purpose.
     */
    boolean failOnLoopErrors() default true;

    /**
     * Run the test and its {@code @BeforeEach}/{@code @AfterEach} methods on a
     * {@link io.jasyncio.loop.VirtualClock}: it starts at zero and, whenever the loop is idle, jumps
     * to the next timer instead of sleeping, so {@code sleep}, {@code callLater}, timeouts and
     * {@code waitFor} take no real time. I/O still happens for real. The clock can be a parameter
     * ({@code VirtualClock clock}) to {@code advance} or {@code hold} it. {@link #timeout()} stays
     * in real seconds.
     */
    boolean virtualTime() default false;
}
