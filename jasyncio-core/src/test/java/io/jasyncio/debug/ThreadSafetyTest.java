package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.Callable;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryEngine
class ThreadSafetyTest {

    /** Runs {@code call} on a worker thread and returns the message of what it threw, or "no error". */
    private static String messageFromAnotherThread(Callable<?> call) {
        return toThread(() -> {
            try {
                call.call();
                return "no error";
            } catch (IllegalStateException e) {
                return e.getMessage();
            }
        });
    }

    @Test
    void loopThreadOnlyMethodsThrowAClearErrorFromAnotherThread() {
        run(() -> {
            EventLoop loop = getRunningLoop();
            String loopThread = Thread.currentThread().getName();
            String callSoon = messageFromAnotherThread(() -> loop.callSoon(() -> { }));
            assertTrue(callSoon.matches("callSoon called from thread 'jasyncio-executor-\\d+-\\d+' but the loop runs on '"
                    + loopThread + "': use callSoonThreadsafe"), callSoon);
            assertTrue(messageFromAnotherThread(() -> loop.callLater(1, () -> { })).startsWith("callAt called from thread"));
            assertTrue(messageFromAnotherThread(() -> loop.runInExecutor(null, () -> 1)).startsWith("runInExecutor called from thread"));

            Future<String> delivered = loop.createFuture();
            assertEquals("no error", messageFromAnotherThread(() -> loop.callSoonThreadsafe(() -> delivered.setResult("via callSoonThreadsafe"))));
            assertEquals("via callSoonThreadsafe", await(delivered));
            return null;
        });
    }
}
