package io.jasyncio.junit;

import io.jasyncio.debug.Watchdog;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.LoopClock;
import io.jasyncio.loop.VirtualClock;
import io.jasyncio.task.Runner;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

/**
 * The loop of one test invocation, from before its {@code @BeforeEach} methods to after its
 * {@code @AfterEach} methods: a {@link Runner} whose runs are the lifecycle methods and the test
 * body, each the main task of one run. Closing the runner at the end cancels what is left and
 * closes the loop, as {@code Asyncio.run} does; then the errors the loop's exception handler
 * received fail the test.
 *
 * <p>One instance per invocation ({@link AsyncTestExtension} makes them), so its fields are the
 * invocation's state.
 */
final class TestLoop implements BeforeEachCallback, AfterEachCallback, InvocationInterceptor, ParameterResolver {
    private final AsyncTest settings;
    private final String loopName; // null: the default implementation
    private Runner runner;
    private LoopErrors errors;
    private boolean abandonedTask; // a method outlived its cancellation: closing must not wait for it
    private Watchdog watchdog;     // debug mode's report of steps that hold the loop

    TestLoop(AsyncTest settings, String loopName) {
        this.settings = settings;
        this.loopName = loopName;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        runner = new Runner(settings.debug(), loopName);
        EventLoop loop = runner.getLoop();
        loop.setDebug(settings.debug()); // explicit either way: -Djasyncio.debug must not override the test's choice
        if (settings.debug()) {
            // A step that holds the loop is reported by a watchdog while it holds it, with the frame
            // that holds it, so class loading and initialisation (a library's static init in the
            // first step) is told apart as the JVM warming up, by the doctor's rule (WarmUp); the
            // loop's own after-the-fact line, which cannot tell, is left out.
            watchdog = Watchdog.install(loop, loop.getSlowCallbackDuration(), null);
            loop.setSlowCallbackDuration(Double.POSITIVE_INFINITY);
        }
        if (settings.virtualTime()) {
            loop.setClock(new VirtualClock());
        }
        if (settings.failOnLoopErrors()) {
            errors = new LoopErrors();
            loop.setExceptionHandler(errors);
        }
    }

    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
                                          ExtensionContext context) throws Throwable {
        runAsMainTask(invocation, method);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
                                            ExtensionContext context) throws Throwable {
        runAsMainTask(invocation, method);
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method,
                                         ExtensionContext context) throws Throwable {
        runAsMainTask(invocation, method);
    }

    private void runAsMainTask(Invocation<Void> invocation, ReflectiveInvocationContext<Method> method) throws Throwable {
        if (runner == null) { // another extension's beforeEach failed before ours ran
            invocation.proceed();
            return;
        }
        MainTask.run(runner, invocation, method.getTargetClass().getSimpleName(), method.getExecutable().getName() + "()",
                settings.timeout(),
                () -> abandonedTask = true);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (runner == null) {
            return;
        }
        if (watchdog != null) {
            watchdog.close();
            watchdog = null;
        }
        try {
            if (abandonedTask) {
                runner.getLoop().close(); // no shutdown: cancelling everything would wait on that task again
            } else {
                runner.close();
            }
        } finally {
            runner = null;
        }
        if (errors != null) {
            List<Map<String, Object>> received = errors.close();
            if (!received.isEmpty()) {
                throw LoopErrors.failure(context.getDisplayName(), received);
            }
        }
    }

    // ---- parameters: the running loop, its clock ----------------------------------------------

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> wanted = parameter.getParameter().getType();
        return runner != null && (EventLoop.class.isAssignableFrom(wanted) || LoopClock.class.isAssignableFrom(wanted));
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        EventLoop loop = runner.getLoop();
        Class<?> wanted = parameter.getParameter().getType();
        if (LoopClock.class.isAssignableFrom(wanted)) {
            if (!wanted.isInstance(loop.clock())) {
                throw new ParameterResolutionException("the test's clock is the " + loop.clock() + ", not a "
                        + wanted.getSimpleName() + "; use @AsyncTest(virtualTime = true) for a VirtualClock");
            }
            return loop.clock();
        }
        if (!wanted.isInstance(loop)) {
            throw new ParameterResolutionException("the test's loop is a " + loop.getClass().getName()
                    + ", not a " + wanted.getName() + "; declare the parameter as EventLoop");
        }
        return loop;
    }
}
