package io.jasyncio.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A contract suite of the loop: it runs on every loop. jasyncio-core runs it on nio; each native
 * loop module reruns it from this module's test jar, selected by this tag ({@code every-loop}),
 * with {@code -Djasyncio.loop} naming that loop. Its parameterized tests take their loop from
 * {@code @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(EveryLoop.TAG)
public @interface EveryLoop {
    String TAG = "every-loop";
}
