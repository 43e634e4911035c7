package io.jasyncio.loop;

import io.jasyncio.loop.internal.NioEventLoopProvider;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The timer heap alone, without a running loop: it counts its cancelled timers and applies
 * asyncio's purge rule (rebuild only past 100 timers with more than half cancelled, else drop
 * cancelled ones at the top), and moves due timers to a ready queue in deadline order.
 */
@EveryLoop
class TimerHeapTest {
    private final CoreEventLoop loop = new CoreEventLoop(new NioEventLoopProvider()); // handles need an owner; it never runs
    private final TimerHeap heap = new TimerHeap();
    private long sequence;

    @AfterEach
    void closeLoop() {
        loop.close();
    }

    private List<TimerHandle> push(int count, long firstDeadline) {
        List<TimerHandle> pushed = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            TimerHandle h = new TimerHandle(loop, firstDeadline + i, sequence++, () -> { }, null, null);
            heap.push(h);
            pushed.add(h);
        }
        return pushed;
    }

    @Test
    void cancellingCountsOnceAndOnlyWhileInTheHeap() {
        List<TimerHandle> timers = push(3, 10);
        timers.get(1).cancel();
        timers.get(1).cancel();
        assertEquals(1, heap.cancelledCount());

        TimerHandle popped = heap.pop();
        assertSame(timers.get(0), popped);
        assertNull(popped.heap);
        popped.cancel(); // no longer in the heap: not counted
        assertEquals(1, heap.cancelledCount());

        heap.pop(); // the cancelled one leaves, and the count with it
        assertEquals(0, heap.cancelledCount());
    }

    @Test
    void upToOneHundredTimersOnlyTheCancelledTopLeaves() {
        List<TimerHandle> timers = push(100, 10);
        for (int i = 0; i < 3; i++) {
            timers.get(i).cancel();
        }
        for (int i = 40; i < 100; i++) {
            timers.get(i).cancel();
        }
        heap.dropCancelled();
        assertEquals(97, heap.size(), "100 timers is not past the threshold: only the 3 at the top leave");
        assertEquals(60, heap.cancelledCount());
        assertSame(timers.get(3), heap.peek());
    }

    @Test
    void pastOneHundredTimersMoreThanHalfCancelledRebuilds() {
        List<TimerHandle> timers = push(200, 10);
        for (int i = 100; i < 200; i++) {
            timers.get(i).cancel(); // exactly half, none at the top
        }
        heap.dropCancelled();
        assertEquals(200, heap.size(), "exactly half cancelled is not more than half");

        timers.get(99).cancel();
        heap.dropCancelled();
        assertEquals(99, heap.size());
        assertEquals(0, heap.cancelledCount());
        timers.forEach(h -> {
            if (h.isCancelled()) {
                assertNull(h.heap, "a purged timer is no longer scheduled");
            }
        });
    }

    @Test
    void dueTimersMoveInDeadlineOrderAndCancelledOnesAreDroppedOnTheWay() {
        List<TimerHandle> timers = push(5, 10); // deadlines 10..14
        timers.get(1).cancel();
        ArrayDeque<Handle> ready = new ArrayDeque<>();

        assertEquals(2, heap.nanosUntilNextDue(8));
        int moved = heap.moveDueTo(ready, 12);
        assertEquals(2, moved);
        assertEquals(List.of(timers.get(0), timers.get(2)), new ArrayList<>(ready));
        assertEquals(0, heap.cancelledCount());
        assertEquals(2, heap.size());
        assertEquals(0, heap.nanosUntilNextDue(20), "overdue: no wait");

        heap.moveDueTo(ready, 20);
        assertEquals(-1, heap.nanosUntilNextDue(20), "empty: block");
    }

    @Test
    void clearUnschedulesEverythingAndResetsTheCount() {
        List<TimerHandle> timers = push(4, 10);
        timers.get(2).cancel();
        heap.clear();
        assertEquals(0, heap.size());
        assertEquals(0, heap.cancelledCount());
        timers.forEach(h -> assertNull(h.heap));
    }
}
