package io.jasyncio.loop;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * An array-backed binary min-heap of {@link TimerHandle}s ordered by (deadline, sequence), so
 * equal deadlines run in scheduling order. Cancelled handles stay until they reach the top or
 * until {@link #purgeCancelled()} rebuilds the heap without them.
 */
final class TimerHeap {
    private TimerHandle[] heap = new TimerHandle[64];
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    TimerHandle peek() {
        return size == 0 ? null : heap[0];
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
        h.scheduled = true;
    }

    TimerHandle pop() {
        TimerHandle top = heap[0];
        TimerHandle last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            siftDown(0, last);
        }
        top.scheduled = false;
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
                h.scheduled = false;
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

    void forEach(Consumer<TimerHandle> action) {
        for (int i = 0; i < size; i++) {
            action.accept(heap[i]);
        }
    }

    void clear() {
        for (int i = 0; i < size; i++) {
            heap[i].scheduled = false;
        }
        Arrays.fill(heap, 0, size, null);
        size = 0;
    }
}
