package io.jasyncio.loop;

import io.jasyncio.loop.internal.NioEventLoopProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The timer heap pops in (deadline, sequence) order through any mix of pushes, cancellations,
 * purges and pops, and counts exactly the cancelled timers it holds: it is checked against a
 * sorted-set model after every operation. Each case is
 * a seeded random operation sequence, so a failure names the seed that reproduces it.
 */
class TimerHeapPropertyTest {
    private static final Comparator<TimerHandle> ORDER =
            Comparator.<TimerHandle>comparingLong(h -> h.deadlineNanos).thenComparingLong(h -> h.sequence);

    /**
     * Each code is one operation: 0-4 push (deadline from a small range, so ties are common),
     * 5-6 cancel a pushed handle, 7 purge cancelled handles, 8-9 pop.
     */
    static LongStream seeds() {
        return LongStream.range(0, 300);
    }

    /** Up to 300 operation codes in 0..9999, from {@code seed}. */
    static List<Integer> operations(long seed) {
        Random random = new Random(seed);
        List<Integer> codes = new ArrayList<>();
        int n = random.nextInt(301);
        for (int i = 0; i < n; i++) {
            codes.add(random.nextInt(10_000));
        }
        return codes;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void popsInDeadlineThenSequenceOrder(long seed) {
        List<Integer> codes = operations(seed);
        try (CoreEventLoop loop = new CoreEventLoop(new NioEventLoopProvider())) {
            TimerHeap heap = new TimerHeap();
            TreeSet<TimerHandle> model = new TreeSet<>(ORDER); // what the heap holds
            List<TimerHandle> pushed = new ArrayList<>();
            long sequence = 0;
            for (int code : codes) {
                int op = code % 10;
                int arg = code / 10;
                if (op <= 4) {
                    TimerHandle h = new TimerHandle(loop, arg % 20, sequence++, () -> { }, null, null);
                    heap.push(h);
                    model.add(h);
                    pushed.add(h);
                } else if (op <= 6) {
                    if (!pushed.isEmpty()) {
                        pushed.get(arg % pushed.size()).cancel(); // stays in the heap until purged or popped
                    }
                } else if (op == 7) {
                    int dropped = heap.purgeCancelled();
                    int before = model.size();
                    model.removeIf(h -> h.isCancelled());
                    assertEquals(before - model.size(), dropped);
                } else if (!model.isEmpty()) {
                    TimerHandle expected = model.pollFirst();
                    assertSame(expected, heap.peek());
                    assertSame(expected, heap.pop());
                    assertNull(expected.heap);
                }
                assertEquals(model.size(), heap.size());
                assertEquals(model.stream().filter(TimerHandle::isCancelled).count(), heap.cancelledCount(),
                        "the heap counts exactly the cancelled timers it holds");
                assertSame(model.isEmpty() ? null : model.first(), heap.peek());
            }
            List<TimerHandle> drained = new ArrayList<>();
            while (!heap.isEmpty()) {
                drained.add(heap.pop());
            }
            assertEquals(new ArrayList<>(model), drained);
        }
    }
}
