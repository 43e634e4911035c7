package io.jasyncio.sync;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
@EveryEngine
class LockTest {

    @Test
    void waitersAcquireInArrivalOrderAndAReleaserQueuesBehindThem() {
        List<String> order = new ArrayList<>();
        run(() -> {
            Lock lock = new Lock();
            lock.acquire();
            List<Task<Void>> tasks = new ArrayList<>();
            for (String name : List.of("a", "b", "c")) {
                tasks.add(createTask(() -> lock.withLock(() -> {
                    order.add(name);
                    sleep(0);
                })));
            }
            sleep(0); // all three queue up
            lock.release();
            lock.acquire(); // the lock is free this instant, yet we queue behind a, b, c
            order.add("main");
            lock.release();
            for (Task<Void> t : tasks) {
                await(t);
            }
            assertFalse(lock.locked());
        });
        assertEquals(List.of("a", "b", "c", "main"), order);
    }

    @Test
    void uncontendedAcquireDoesNotYield() {
        run(() -> {
            Lock lock = new Lock();
            boolean[] otherRan = {false};
            Task<Void> other = createTask(() -> {
                otherRan[0] = true;
            });
            lock.acquire();
            assertFalse(otherRan[0], "acquiring a free lock must not let other tasks run");
            lock.release();
            await(other);
        });
    }

    @Test
    void cancelledWaiterIsSkipped() {
        List<String> order = new ArrayList<>();
        run(() -> {
            Lock lock = new Lock();
            lock.acquire();
            Task<Void> a = createTask(() -> lock.withLock(() -> { order.add("a"); }));
            Task<Void> b = createTask(() -> lock.withLock(() -> { order.add("b"); }));
            Task<Void> c = createTask(() -> lock.withLock(() -> { order.add("c"); }));
            sleep(0);
            b.cancel();
            lock.release();
            await(a);
            assertThrows(CancelledError.class, () -> await(b));
            await(c);
            assertFalse(lock.locked());
        });
        assertEquals(List.of("a", "c"), order);
    }

    @Test
    void waiterCancelledAfterBeingGrantedTheLockPassesItOn() {
        run(() -> {
            Lock lock = new Lock();
            lock.acquire();
            Task<Void> first = createTask(() -> lock.withLock(() -> { }));
            Task<String> second = createTask(() -> lock.withLock(() -> "second got it"));
            sleep(0);
            lock.release();   // grants the lock to first...
            first.cancel();   // ...which is cancelled before it can run
            assertThrows(CancelledError.class, () -> await(first));
            assertEquals("second got it", await(second));
            assertFalse(lock.locked());
            lock.acquire(); // still usable
            lock.release();
        });
    }

    @Test
    void releasingAnUnlockedLockFails() {
        run(() -> {
            Lock lock = new Lock();
            IllegalStateException e = assertThrows(IllegalStateException.class, lock::release);
            assertTrue(e.getMessage().contains("not acquired"));
        });
    }

    @Test
    void holdAndWithLockReleaseOnFailure() {
        run(() -> {
            Lock lock = new Lock();
            try (Held held = lock.hold()) {
                assertTrue(lock.locked());
            }
            assertFalse(lock.locked());
            assertThrows(IllegalArgumentException.class, () -> lock.withLock(() -> {
                assertTrue(lock.locked());
                throw new IllegalArgumentException("boom");
            }));
            assertFalse(lock.locked());
        });
    }

    @Test
    void aLockBoundToOneLoopRefusesAnother() {
        Lock lock = new Lock();
        AtomicReference<Task<Void>> waiter = new AtomicReference<>();
        run(() -> {
            lock.acquire();
            waiter.set(createTask(lock::acquire)); // binds the lock to this loop
            sleep(0);
            waiter.get().cancel();
            try {
                await(waiter.get());
            } catch (CancelledError expected) {
                // the waiter leaves
            }
        });
        run(() -> {
            // still held from the first loop: acquiring must wait, which needs a future of the bound loop
            IllegalStateException e = assertThrows(IllegalStateException.class, lock::acquire);
            assertTrue(e.getMessage().contains("different event loop"), e.getMessage());
        });
    }
}
