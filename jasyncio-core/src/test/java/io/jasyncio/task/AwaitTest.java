package io.jasyncio.task;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

@Timeout(10)
@EveryLoop
@EveryEngine
class AwaitTest {

    @Test
    void awaitingAPendingFutureOfAnotherLoopFailsClearlyInsteadOfHanging() {
        try (EventLoop other = EventLoops.newEventLoop()) {
            Future<String> foreign = other.createFuture();
            IllegalStateException e = run(() -> assertThrows(IllegalStateException.class, () -> await(foreign)));
            assertTrue(e.getMessage().contains("different loop"), e.getMessage());
        }
    }

    @Test
    void awaitOutsideATaskFailsClearly() {
        Future<String> f;
        try (EventLoop loop = EventLoops.newEventLoop()) {
            f = loop.createFuture();
            IllegalStateException noLoop = assertThrows(IllegalStateException.class, () -> await(f));
            assertTrue(noLoop.getMessage().contains("inside a task"), noLoop.getMessage());

            List<String> messages = new ArrayList<>();
            loop.callSoon(() -> {
                try {
                    await(f);
                    fail("await in a plain callback must not return");
                } catch (IllegalStateException e) {
                    messages.add(e.getMessage());
                }
                loop.stop();
            });
            loop.runForever();
            assertEquals(1, messages.size());
            assertTrue(messages.get(0).contains("plain callback"), messages.get(0));
        }
    }

    @Test
    void sleepOutsideATaskFailsClearly() {
        assertThrows(IllegalStateException.class, () -> sleep(0));
    }

    @Test
    void aCheckedExceptionArrivesAsTheSameObject() {
        IOException original = new IOException("disk gone");
        Throwable seen = run(() -> {
            Task<String> t = createTask(() -> {
                sleep(0);
                throw original;
            });
            try {
                await(t);
                return null;
            } catch (Exception e) { // declared unchecked: catch Exception, test the type
                return e;
            }
        });
        assertSame(original, seen);
    }

    @Test
    void anAlreadyDoneFutureIsAwaitedWithoutYielding() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Future<String> done = getRunningLoop().createFuture();
            done.setResult("x");
            createTask(() -> trace.add("other task ran"));
            for (int i = 0; i < 100; i++) {
                await(done);
            }
            trace.add("100 awaits done");
            sleep(0);
            return null;
        });
        assertEquals(List.of("100 awaits done", "other task ran"), trace);
    }
}
