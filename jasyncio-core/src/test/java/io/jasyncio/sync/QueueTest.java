package io.jasyncio.sync;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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
class QueueTest {

    @Test
    void putWaitsWhileFullAndPuttersAreServedInOrder() {
        List<String> log = new ArrayList<>();
        run(() -> {
            Queue<String> q = new Queue<>(1);
            q.putNowait("first");
            List<Task<Void>> ps = new ArrayList<>();
            for (String item : List.of("a", "b", "c")) {
                ps.add(createTask(() -> {
                    q.put(item);
                    log.add("put " + item);
                }));
            }
            sleep(0);
            assertTrue(log.isEmpty(), "every put waits while the queue is full");
            for (String expected : List.of("first", "a", "b", "c")) {
                assertEquals(expected, q.get());
            }
            for (Task<Void> p : ps) {
                await(p);
            }
        });
        assertEquals(List.of("put a", "put b", "put c"), log);
    }

    @Test
    void gettersAreServedInOrder() {
        List<String> log = new ArrayList<>();
        run(() -> {
            Queue<String> q = new Queue<>();
            List<Task<Void>> gs = new ArrayList<>();
            for (String name : List.of("g1", "g2", "g3")) {
                gs.add(createTask(() -> {
                    log.add(name + " " + q.get());
                }));
            }
            sleep(0);
            for (String item : List.of("x", "y", "z")) {
                q.putNowait(item);
            }
            for (Task<Void> g : gs) {
                await(g);
            }
        });
        assertEquals(List.of("g1 x", "g2 y", "g3 z"), log);
    }

    @Test
    void aGetterCancelledAfterBeingWokenPassesTheItemOn() {
        run(() -> {
            Queue<String> q = new Queue<>();
            Task<String> g1 = createTask(q::get);
            Task<String> g2 = createTask(q::get);
            sleep(0);
            q.putNowait("item"); // wakes g1...
            g1.cancel();          // ...which is cancelled before it takes the item
            assertThrows(CancelledError.class, () -> await(g1));
            assertEquals("item", await(g2));
            assertTrue(q.isEmpty());
        });
    }

    @Test
    void aPutterCancelledAfterBeingWokenPassesTheSlotOn() {
        run(() -> {
            Queue<String> q = new Queue<>(1);
            q.putNowait("full");
            Task<Void> p1 = createTask(() -> q.put("p1"));
            Task<Void> p2 = createTask(() -> q.put("p2"));
            sleep(0);
            assertEquals("full", q.getNowait()); // frees a slot for p1...
            p1.cancel();                          // ...which is cancelled before it uses it
            assertThrows(CancelledError.class, () -> await(p1));
            await(p2);
            assertEquals("p2", q.getNowait());
            assertTrue(q.isEmpty());
        });
    }

    @Test
    void nowaitVariantsFailInsteadOfWaiting() {
        run(() -> {
            Queue<Integer> q = new Queue<>(1);
            assertThrows(QueueEmptyException.class, q::getNowait);
            q.putNowait(1);
            assertTrue(q.isFull());
            assertThrows(QueueFullException.class, () -> q.putNowait(2));
            assertThrows(NullPointerException.class, () -> new Queue<String>().putNowait(null));
        });
    }

    @Test
    void joinWaitsForEveryTaskDone() {
        run(() -> {
            Queue<Integer> q = new Queue<>();
            q.join(); // nothing unfinished: returns at once
            for (int i = 0; i < 3; i++) {
                q.putNowait(i);
            }
            List<Integer> processed = new ArrayList<>();
            Task<Void> worker = createTask(() -> {
                for (int i = 0; i < 3; i++) {
                    int item = q.get();
                    sleep(0);
                    processed.add(item);
                    q.taskDone();
                }
            });
            q.join();
            assertEquals(List.of(0, 1, 2), processed);
            assertEquals(0, q.unfinishedTasks());
            await(worker);
            assertThrows(IllegalStateException.class, q::taskDone);
        });
    }

    @Test
    void shutdownLetsGettersDrainThenFailsThem() {
        run(() -> {
            Queue<String> q = new Queue<>(2);
            q.putNowait("left");
            Task<Void> blockedPutter = createTask(() -> {
                q.put("x"); // fits
                q.put("y"); // waits: full
            });
            sleep(0);
            q.shutdown();
            assertThrows(QueueShutDownException.class, () -> await(blockedPutter));
            assertThrows(QueueShutDownException.class, () -> q.putNowait("late"));
            assertEquals("left", q.get()); // items still drain
            assertEquals("x", q.get());
            assertThrows(QueueShutDownException.class, q::get);
            assertThrows(QueueShutDownException.class, q::getNowait);
        });
    }

    @Test
    void shutdownWakesWaitingGetters() {
        run(() -> {
            Queue<String> q = new Queue<>();
            Task<String> g1 = createTask(q::get);
            Task<String> g2 = createTask(q::get);
            sleep(0);
            q.shutdown();
            assertThrows(QueueShutDownException.class, () -> await(g1));
            assertThrows(QueueShutDownException.class, () -> await(g2));
        });
    }

    @Test
    void immediateShutdownDropsItemsAndReleasesJoin() {
        run(() -> {
            Queue<String> q = new Queue<>();
            q.putNowait("a");
            q.putNowait("b");
            Task<Void> joiner = createTask(q::join);
            sleep(0);
            assertFalse(joiner.isDone());
            q.shutdown(true);
            await(joiner);
            assertTrue(q.isEmpty());
            assertEquals(0, q.unfinishedTasks());
            assertThrows(QueueShutDownException.class, q::get);
        });
    }

    @Test
    void priorityAndLifoQueuesChangeOnlyTheOrder() {
        run(() -> {
            PriorityQueue<Integer> pq = new PriorityQueue<>();
            for (int i : new int[] {5, 1, 4, 2, 3}) {
                pq.putNowait(i);
            }
            List<Integer> out = new ArrayList<>();
            while (!pq.isEmpty()) {
                out.add(pq.get());
            }
            assertEquals(List.of(1, 2, 3, 4, 5), out);

            PriorityQueue<String> byLength = new PriorityQueue<>(0, Comparator.comparingInt(String::length));
            byLength.putNowait("ccc");
            byLength.putNowait("a");
            assertEquals("a", byLength.getNowait());

            LifoQueue<String> lifo = new LifoQueue<>(2);
            lifo.putNowait("a");
            lifo.putNowait("b");
            assertThrows(QueueFullException.class, () -> lifo.putNowait("c"));
            assertEquals("b", lifo.get());
            assertEquals("a", lifo.get());
        });
    }
}
