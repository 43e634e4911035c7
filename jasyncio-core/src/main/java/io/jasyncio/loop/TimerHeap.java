package io.jasyncio.loop;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The loop's timers: an array-backed binary min-heap of {@link TimerHandle}s ordered by
 * (deadline, sequence), so equal deadlines run in scheduling order, with asyncio's lazy
 * cancellation. Cancelling a timer only marks it (and counts it here); a cancelled timer leaves
 * when it reaches the top, or all of them at once when {@link #dropCancelled()} finds them many:
 * more than {@value #MIN_SCHEDULED_TIMER_HANDLES} timers, more than half of them cancelled.
 */
final class TimerHeap {
    /** Rebuild the heap without its cancelled timers only once it holds more than this many... */
    static final int MIN_SCHEDULED_TIMER_HANDLES = 100;
    /** ...and more than this fraction of them are cancelled (asyncio's thresholds). */
    static final double MIN_CANCELLED_TIMER_HANDLES_FRACTION = 0.5;

    private TimerHandle[] heap = new TimerHandle[64];
    private int size;
    /** How many of the handles in the heap are cancelled. */
    private int cancelled;
    /** How many handles were ever cancelled while in this heap (statistics). */
    private long cancelledTotal;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** How many timers were cancelled while in the heap, ever. */
    long cancelledTotal() {
        return cancelledTotal;
    }

    /** How many timers in the heap are cancelled and not dropped yet. */
    int cancelledCount() {
        return cancelled;
    }

    TimerHandle peek() {
        return size == 0 ? null : heap[0];
    }

    /**
     * Nanoseconds from {@code now} until the earliest timer is due (0 if overdue), or -1 when
     * there is none: the poller's timeout when nothing else is ready.
     */
    long nanosUntilNextDue(long now) {
        return size == 0 ? -1 : Math.max(0, heap[0].deadlineNanos - now);
    }

    /**
     * Moves every timer due at {@code now} to {@code ready}, in deadline order; cancelled ones
     * reaching the top on the way are dropped. Returns how many live timers moved.
     */
    int moveDueTo(ArrayDeque<? super TimerHandle> ready, long now) {
        int moved = 0;
        while (size > 0 && heap[0].deadlineNanos <= now) {
            TimerHandle due = pop();
            if (!due.isCancelled()) {
                ready.add(due);
                moved++;
            }
        }
        return moved;
    }

    /**
     * asyncio's purge rule, run once per iteration: when cancelled timers are many (see the class
     * comment) the heap is rebuilt without them in O(n); otherwise only those at the top leave.
     */
    void dropCancelled() {
        if (size > MIN_SCHEDULED_TIMER_HANDLES && cancelled > size * MIN_CANCELLED_TIMER_HANDLES_FRACTION) {
            purgeCancelled();
        } else {
            while (size > 0 && heap[0].isCancelled()) {
                pop();
            }
        }
    }

    /** Called by a handle in this heap when it is cancelled (once: the handle checks). */
    void timerCancelled() {
        cancelled++;
        cancelledTotal++;
    }

    void push(TimerHandle h) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            TimerHandle p = heap[parent];
            if (!h.runsBefore(p)) {
                break;
            }
            heap[i] = p;
            i = parent;
        }
        heap[i] = h;
        h.heap = this;
        if (h.isCancelled()) {
            cancelled++; // pushed already cancelled: counted like any other cancelled timer in the heap
        }
    }

    TimerHandle pop() {
        TimerHandle top = heap[0];
        TimerHandle last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            siftDown(0, last);
        }
        leave(top);
        return top;
    }

    private void siftDown(int i, TimerHandle h) {
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            TimerHandle c = heap[child];
            int right = child + 1;
            if (right < size && heap[right].runsBefore(c)) {
                child = right;
                c = heap[child];
            }
            if (!c.runsBefore(h)) {
                break;
            }
            heap[i] = c;
            i = child;
        }
        heap[i] = h;
    }

    /** Drops every cancelled handle and re-heapifies in O(n); returns how many were dropped. */
    int purgeCancelled() {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            TimerHandle h = heap[i];
            if (h.isCancelled()) {
                leave(h);
            } else {
                heap[kept++] = h;
            }
        }
        int dropped = size - kept;
        Arrays.fill(heap, kept, size, null);
        size = kept;
        for (int i = (size >>> 1) - 1; i >= 0; i--) {
            siftDown(i, heap[i]);
        }
        if (heap.length > 64 && size < heap.length / 4) {
            heap = Arrays.copyOf(heap, Math.max(64, size * 2)); // give memory back after a flood
        }
        return dropped;
    }

    /** A handle leaves the heap: it is no longer scheduled, and no longer counted if cancelled. */
    private void leave(TimerHandle h) {
        h.heap = null;
        if (h.isCancelled()) {
            cancelled--;
        }
    }

    void clear() {
        for (int i = 0; i < size; i++) {
            heap[i].heap = null;
        }
        Arrays.fill(heap, 0, size, null);
        size = 0;
        cancelled = 0;
    }
}
