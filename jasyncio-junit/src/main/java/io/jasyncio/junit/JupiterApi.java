package io.jasyncio.junit;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

import java.lang.reflect.AnnotatedElement;
import java.util.List;

/**
 * Whether the JUnit Jupiter this run has offers what the extension uses: the methods it calls,
 * and the interceptor methods it relies on JUnit to call (without them a test body would run off
 * the loop, silently). Decided by the API itself, not by a version string: a launcher's manifest
 * may carry the Platform's version (the console launcher's "1.11.4" is Jupiter 5.11.4). All of it
 * is in Jupiter 5.10, the oldest the build tests; a run that lacks a method fails the first
 * {@code @AsyncTest} with a sentence naming it, instead of a {@code NoSuchMethodError} deep in a run.
 */
final class JupiterApi {
    /** A method the extension needs: {@code type.name(parameters)}. */
    record Needed(Class<?> type, String name, Class<?>... parameters) {
        boolean present() {
            try {
                type.getMethod(name, parameters);
                return true;
            } catch (NoSuchMethodException e) {
                return false;
            }
        }

        @Override
        public String toString() {
            return type.getSimpleName() + "." + name;
        }
    }

    static final List<Needed> NEEDED = List.of(
            new Needed(ExtensionContext.class, "getTestMethod"),
            new Needed(ExtensionContext.class, "getRequiredTestMethod"),
            new Needed(ExtensionContext.class, "getRequiredTestClass"),
            new Needed(ExtensionContext.class, "getDisplayName"),
            new Needed(AnnotationSupport.class, "isAnnotated", AnnotatedElement.class, Class.class),
            new Needed(AnnotationSupport.class, "findAnnotation", AnnotatedElement.class, Class.class),
            new Needed(TestTemplateInvocationContextProvider.class, "provideTestTemplateInvocationContexts", ExtensionContext.class),
            new Needed(TestTemplateInvocationContext.class, "getAdditionalExtensions"),
            new Needed(TestTemplateInvocationContext.class, "getDisplayName", int.class),
            new Needed(InvocationInterceptor.class, "interceptTestTemplateMethod", InvocationInterceptor.Invocation.class,
                    ReflectiveInvocationContext.class, ExtensionContext.class),
            new Needed(InvocationInterceptor.class, "interceptBeforeEachMethod", InvocationInterceptor.Invocation.class,
                    ReflectiveInvocationContext.class, ExtensionContext.class),
            new Needed(InvocationInterceptor.class, "interceptAfterEachMethod", InvocationInterceptor.Invocation.class,
                    ReflectiveInvocationContext.class, ExtensionContext.class),
            new Needed(InvocationInterceptor.Invocation.class, "proceed"),
            new Needed(ReflectiveInvocationContext.class, "getExecutable"),
            new Needed(ReflectiveInvocationContext.class, "getTargetClass"),
            new Needed(ParameterContext.class, "getParameter"));

    private JupiterApi() {
    }

    /** Throws, naming what is missing, when the Jupiter in use lacks a method the extension needs. */
    static void checkSupported() {
        List<Needed> missing = missing(NEEDED);
        if (!missing.isEmpty()) {
            throw new ExtensionConfigurationException(refusal(missing));
        }
    }

    /** The ones of {@code needed} this run's JUnit does not have. */
    static List<Needed> missing(List<Needed> needed) {
        return needed.stream().filter(n -> !n.present()).toList();
    }

    static String refusal(List<Needed> missing) {
        return "jasyncio-junit needs JUnit Jupiter 5.10 or later; this test run's JUnit lacks " + missing
                + ": raise the JUnit version in the build (e.g. its junit-bom)";
    }
}
