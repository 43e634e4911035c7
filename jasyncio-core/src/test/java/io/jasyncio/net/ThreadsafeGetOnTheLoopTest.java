package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.runCoroutineThreadsafe;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * runCoroutineThreadsafe(...).get() on the loop's own thread would wait forever for a task that
 * loop must run: it throws a clear IllegalStateException instead (the test times out if it hangs).
 */
@Timeout(20)
@EveryLoop
@EveryEngine
class ThreadsafeGetOnTheLoopTest {


    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void blockingOnThePendingFutureFromATaskThrowsInsteadOfHanging(String loopName) {
        NetTesting.run(loopName, 15, () -> {
            EventLoop loop = getRunningLoop();
            CompletableFuture<Integer> f = runCoroutineThreadsafe(() -> {
                sleep(0);
                return 42;
            }, loop);
            IllegalStateException get = assertThrows(IllegalStateException.class, f::get);
            assertTrue(get.getMessage().startsWith("runCoroutineThreadsafe(...).get() called on the thread of the loop "
                    + "that must run the coroutine: it would wait forever"), get.getMessage());
            assertThrows(IllegalStateException.class, f::join);
            assertThrows(IllegalStateException.class, () -> f.get(1, TimeUnit.SECONDS));
            assertEquals(42, await(f), "awaiting it is the way on the loop");
            assertEquals(42, f.get(), "a future that is done may be read anywhere");
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void blockingFromALoopCallbackThrowsToo(String loopName) {
        NetTesting.run(loopName, 15, () -> {
            EventLoop loop = getRunningLoop();
            Future<String> seen = loop.createFuture();
            loop.callSoon(() -> {
                CompletableFuture<Integer> f = runCoroutineThreadsafe(() -> 1, loop);
                try {
                    f.join();
                    seen.setResult("join returned");
                } catch (IllegalStateException e) {
                    seen.setResult(e.getMessage());
                }
            });
            assertTrue(await(seen).startsWith("runCoroutineThreadsafe(...).join() called on the thread of the loop"));
            return null;
        });
    }
}
