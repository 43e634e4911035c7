package io.jasyncio.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A suite the task engine can change: it runs on both engines. Every module that runs it runs it
 * again, selected by this tag ({@code every-engine}), in a JVM on the portable engine
 * ({@code -Djasyncio.engine=threads}, no {@code jdk.internal.vm} export). With {@link EveryLoop}
 * too, it runs on every loop x every engine.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(EveryEngine.TAG)
public @interface EveryEngine {
    String TAG = "every-engine";
}
