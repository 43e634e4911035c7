package io.jasyncio.junit;

import io.jasyncio.loop.EventLoops;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.stream.Stream;

/**
 * Turns an {@link AsyncTest} method into its invocations: one on the default loop, or one per
 * loop implementation under {@link OnEveryLoop}. Each invocation brings its own {@link TestLoop}.
 */
public final class AsyncTestExtension implements TestTemplateInvocationContextProvider {
    /** The extension, as JUnit makes it for {@code @AsyncTest}. */
    public AsyncTestExtension() {
    }

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        boolean async = context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, AsyncTest.class)).orElse(false);
        if (async) {
            JupiterApi.checkSupported();
        }
        return async;
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        AsyncTest settings = AnnotationSupport.findAnnotation(method, AsyncTest.class).orElseThrow();
        String testName = context.getDisplayName();
        if (!onEveryLoop(context)) {
            return Stream.of(new Invocation(testName, new TestLoop(settings, null)));
        }
        return loopNames().stream()
                .map(loopName -> new Invocation("on " + loopName, new TestLoop(settings, loopName)));
    }

    /** Every loop available here, or those named by {@code -Djasyncio.test.loops=a,b} (one JVM per loop in CI). */
    private static List<String> loopNames() {
        String chosen = System.getProperty("jasyncio.test.loops", "");
        List<String> available = EventLoops.availableNames();
        if (chosen.isBlank()) {
            return available;
        }
        List<String> names = List.of(chosen.split(","));
        for (String name : names) {
            if (!available.contains(name)) {
                throw new IllegalStateException("-Djasyncio.test.loops names the '" + name + "' loop, which cannot run here; "
                        + "available: " + available);
            }
        }
        return names;
    }

    /**
     * On the method, its class (or a superclass: the annotation is inherited), or a class that
     * encloses a {@code @Nested} one. Walked by hand: JUnit's own search of enclosing classes is
     * newer than the oldest JUnit supported (5.10).
     */
    private static boolean onEveryLoop(ExtensionContext context) {
        if (AnnotationSupport.isAnnotated(context.getRequiredTestMethod(), OnEveryLoop.class)) {
            return true;
        }
        for (Class<?> c = context.getRequiredTestClass(); c != null; c = enclosingOfInner(c)) {
            if (AnnotationSupport.isAnnotated(c, OnEveryLoop.class)) {
                return true;
            }
        }
        return false;
    }

    /** The class enclosing {@code c} if {@code c} is an inner (non-static) class, as {@code @Nested} ones are. */
    private static Class<?> enclosingOfInner(Class<?> c) {
        return c.isMemberClass() && !Modifier.isStatic(c.getModifiers()) ? c.getEnclosingClass() : null;
    }

    /** One run of the test: its name in reports, and the loop it runs on. */
    private record Invocation(String displayName, TestLoop loop) implements TestTemplateInvocationContext {
        @Override
        public String getDisplayName(int invocationIndex) {
            return displayName;
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(loop);
        }
    }
}
