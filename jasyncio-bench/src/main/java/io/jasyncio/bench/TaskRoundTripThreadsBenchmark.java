package io.jasyncio.bench;

import org.openjdk.jmh.annotations.Fork;

/**
 * {@link TaskRoundTripBenchmark} on the portable task engine: each body on a virtual thread of its
 * own, in a JVM without the {@code jdk.internal.vm} export (as a user's JVM without the flag).
 */
@Fork(value = 2, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH},
        jvmArgsAppend = {JvmFlags.ADD_EXPORTS, JvmFlags.NIO_INTERNALS, JvmFlags.NATIVE_ACCESS, JvmFlags.THREADS_ENGINE})
public class TaskRoundTripThreadsBenchmark extends TaskRoundTripBenchmark {
}
