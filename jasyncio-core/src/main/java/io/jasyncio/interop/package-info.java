/**
 * The loop and the rest of Java, both ways: coroutines submitted from any thread with a
 * {@link java.util.concurrent.CompletableFuture} back ({@link ThreadsafeCoroutines}), Java
 * futures and completion stages awaited from tasks ({@link JavaFutures}). Every completion
 * reaches the loop through {@code callSoonThreadsafe}, so loop state is only ever touched on the
 * loop thread; {@link io.jasyncio.loop.Future#toCompletableFuture()} is the third direction.
 */
package io.jasyncio.interop;
