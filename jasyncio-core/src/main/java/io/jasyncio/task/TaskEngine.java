package io.jasyncio.task;

/**
 * How task bodies run: the one seam between {@link Task}'s stepping and the machinery that lets
 * a body stop in the middle and go on later. Two implementations, one chosen per JVM (see
 * {@link EngineCheck#chosenEngine()}): {@link ContinuationEngine} (JDK continuations; fastest,
 * needs {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}) and {@link ThreadEngine}
 * (each body on a virtual thread of its own, handing control back and forth with the loop's
 * thread; portable, needs no flag).
 *
 * <p>Only one implementation is ever loaded in a JVM, so the calls through this interface stay
 * monomorphic on the hot path.
 */
interface TaskEngine {
    /** The engine of this JVM, chosen at the first use of tasks. */
    TaskEngine CHOSEN = EngineCheck.chosenEngine();

    /** {@code -Djasyncio.engine} names: {@code continuation} or {@code threads}. */
    String name();

    /** A body for {@code task} that runs {@code code} from its first {@link TaskBody#resume()}; nothing runs yet. */
    TaskBody newBody(Task<?> task, Runnable code);

    /** The task whose body is running on the calling thread, or null (a plain callback, another thread). */
    Task<?> current();
}
