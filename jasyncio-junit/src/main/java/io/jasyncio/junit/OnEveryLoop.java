package io.jasyncio.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs every {@link AsyncTest} of the class (or the one method) once per loop implementation
 * that can run here ({@code EventLoops.availableNames()}: {@code nio}, and {@code epoll} when its
 * module is on the class path): one suite, every loop, as Netty's transport testsuite.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface OnEveryLoop {
}
