package io.jasyncio.junit;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A sample test class, meant to fail on purpose: it runs only under the test kit (which sets
 * {@link #RUN_SAMPLES}), never when the build or an IDE picks it up by itself.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(Sample.OnlyInTestKit.class)
@interface Sample {
    String RUN_SAMPLES = "io.jasyncio.junit.runSamples";

    final class OnlyInTestKit implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(RUN_SAMPLES, Boolean::parseBoolean).orElse(false)
                    ? ConditionEvaluationResult.enabled("run by the test kit")
                    : ConditionEvaluationResult.disabled("a sample: runs only under the test kit");
        }
    }
}
