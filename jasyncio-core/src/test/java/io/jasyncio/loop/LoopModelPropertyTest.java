package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole loop against a model of it, on seeded random programs: callSoon, timers already due
 * or far in the future, and cancels, issued before an iteration and by the callbacks themselves.
 * Each iteration, the loop's report (select timeout, queue sizes, timers moved, ntodo), the
 * callbacks it ran and its counters must be the model's: a FIFO ready queue, timers by deadline
 * then sequence, the snapshot, cancelled timers counted and purged by asyncio's rule.
 */
@Timeout(60)
@EveryLoop
class LoopModelPropertyTest {
    private static final long DAY_NANOS = 24L * 3600 * 1_000_000_000L;
    private static final long SECOND = 1_000_000_000L;
    private static final int ROUNDS = 40;

    static Stream<Arguments> loopsAndSeeds() {
        return EventLoops.availableNames().stream()
                .flatMap(loop -> LongStream.rangeClosed(1, 20).mapToObj(seed -> Arguments.of(loop, seed)));
    }

    private enum Kind { SOON, DUE, FUTURE, CANCEL }

    /** One step of a program: schedule callback {@code id} (of that kind, at that deadline) or cancel {@code id}. */
    private record Op(Kind kind, int id, long deadline) {
    }

    /** What a callback or timer is in the model. */
    private static final class Entry {
        final int id;
        final boolean timer;
        final long deadline;
        final long sequence;
        boolean cancelled;
        boolean inHeap;

        Entry(int id, boolean timer, long deadline, long sequence) {
            this.id = id;
            this.timer = timer;
            this.deadline = deadline;
            this.sequence = sequence;
        }
    }

    private static final Comparator<Entry> BY_DEADLINE_THEN_SEQUENCE =
            Comparator.<Entry>comparingLong(e -> e.deadline).thenComparingLong(e -> e.sequence);

    /** The random program: what each callback does when it runs, drawn when it is created. */
    private static final class Program {
        final Random random;
        final long base;
        final Map<Integer, List<Op>> opsOf = new HashMap<>();
        int nextId;

        Program(long seed, long base) {
            this.random = new Random(seed);
            this.base = base;
        }

        /** A burst of far timers with a random share of them cancelled (more than half or not). */
        List<Op> burst(double cancelledShare) {
            int first = nextId;
            int count = 100 + random.nextInt(200);
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                opsOf.put(nextId, List.of());
                ops.add(new Op(Kind.FUTURE, nextId++, base + 1_000_000 * SECOND + random.nextInt(5) * SECOND));
            }
            for (int i = 0; i < count; i++) {
                if (random.nextDouble() < cancelledShare) {
                    ops.add(new Op(Kind.CANCEL, first + i, 0));
                }
            }
            return ops;
        }

        List<Op> ops(int count) {
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int roll = random.nextInt(100);
                Kind kind = roll < 35 ? Kind.SOON : roll < 55 ? Kind.DUE : roll < 75 ? Kind.FUTURE : Kind.CANCEL;
                if (kind == Kind.CANCEL) {
                    if (nextId > 0) {
                        ops.add(new Op(kind, random.nextInt(nextId), 0));
                    }
                    continue;
                }
                // Few distinct deadlines, so that equal deadlines (ordered by sequence) are common.
                long deadline = switch (kind) {
                    case DUE -> base - (1 + random.nextInt(5)) * SECOND;
                    case FUTURE -> base + 1_000_000 * SECOND + random.nextInt(5) * SECOND;
                    default -> 0;
                };
                int id = nextId++;
                opsOf.put(id, random.nextInt(3) == 0 ? List.of() : ops(random.nextInt(4)));
                ops.add(new Op(kind, id, deadline));
            }
            return ops;
        }
    }

    /** The model: the loop's three queues as lists, and one iteration as asyncio's _run_once. */
    private static final class Model {
        final List<Entry> ready = new ArrayList<>();
        final List<Entry> heap = new ArrayList<>();
        final Map<Integer, Entry> entries = new HashMap<>();
        final List<Integer> ran = new ArrayList<>();
        long sequence;
        int cancelledInHeap;
        int purges;

        void apply(Op op) {
            switch (op.kind) {
                case SOON -> {
                    Entry e = new Entry(op.id, false, 0, -1);
                    entries.put(op.id, e);
                    ready.add(e);
                }
                case DUE, FUTURE -> {
                    Entry e = new Entry(op.id, true, op.deadline, sequence++);
                    e.inHeap = true;
                    entries.put(op.id, e);
                    heap.add(e);
                }
                case CANCEL -> {
                    Entry e = entries.get(op.id);
                    if (e != null && !e.cancelled) {
                        e.cancelled = true;
                        if (e.inHeap) {
                            cancelledInHeap++;
                        }
                    }
                }
            }
        }

        Entry top() {
            return heap.stream().min(BY_DEADLINE_THEN_SEQUENCE).orElse(null);
        }

        void pop(Entry e) {
            heap.remove(e);
            e.inHeap = false;
        }

        /** One iteration, woken by a thread-safe stop at its select; returns what it reports. */
        IterationRecorder.Iteration runOnce(Program program, long now) {
            if (heap.size() > 100 && cancelledInHeap > heap.size() * 0.5) {
                for (Entry e : List.copyOf(heap)) {
                    if (e.cancelled) {
                        pop(e);
                    }
                }
                cancelledInHeap = 0;
                purges++;
            } else {
                for (Entry top = top(); top != null && top.cancelled; top = top()) {
                    pop(top);
                    cancelledInHeap--;
                }
            }
            Entry top = top();
            long timeout = !ready.isEmpty() ? 0 : top == null ? -1 : Math.min(Math.max(0, top.deadline - now), DAY_NANOS);
            int readyCount = ready.size();
            int timerCount = heap.size();
            ready.add(new Entry(-1, false, 0, -1)); // the recorder's stop
            int moved = 0;
            for (Entry t = top(); t != null && t.deadline <= now; t = top()) {
                pop(t);
                if (t.cancelled) {
                    cancelledInHeap--;
                } else {
                    ready.add(t);
                    moved++;
                }
            }
            int ntodo = ready.size();
            for (int i = 0; i < ntodo; i++) {
                Entry e = ready.removeFirst();
                if (!e.cancelled && e.id >= 0) {
                    ran.add(e.id);
                    program.opsOf.get(e.id).forEach(this::apply);
                }
            }
            return new IterationRecorder.Iteration(timeout, readyCount, timerCount, moved, ntodo);
        }
    }

    /** Does to the real loop what {@code op} does to the model. */
    private static void apply(EventLoop loop, Program program, Map<Integer, Handle> handles, List<Integer> ran, Op op) {
        Runnable callback = () -> {
            ran.add(op.id);
            for (Op next : program.opsOf.get(op.id)) {
                apply(loop, program, handles, ran, next);
            }
        };
        switch (op.kind) {
            case SOON -> handles.put(op.id, loop.callSoon(callback));
            case DUE, FUTURE -> handles.put(op.id, loop.callAtNanos(op.deadline, callback));
            case CANCEL -> {
                Handle h = handles.get(op.id);
                if (h != null) { // (the program may name a callback not scheduled yet)
                    h.cancel();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} loop, seed {1}")
    @MethodSource("loopsAndSeeds")
    void theLoopDoesWhatTheModelDoes(String loopName, long seed) {
        try (EventLoop loop = EventLoops.newEventLoop(loopName)) {
            IterationRecorder recorder = new IterationRecorder(loop);
            Program program = new Program(seed, loop.nanoTime());
            Model model = new Model();
            Map<Integer, Handle> handles = new HashMap<>();
            List<Integer> ran = new ArrayList<>();
            List<Map<String, Object>> errors = new ArrayList<>();
            loop.setExceptionHandler((l, context) -> errors.add(context)); // a failing callback fails the test
            for (int round = 0; round < ROUNDS; round++) {
                // Now and then a burst of far timers, many of them cancelled: the purge's ground.
                List<Op> ops = round == ROUNDS / 2 ? program.burst(0.9)
                        : program.random.nextInt(8) == 0 ? program.burst(0.3 + 0.6 * program.random.nextDouble())
                        : program.ops(program.random.nextInt(6));
                for (Op op : ops) {
                    model.apply(op);
                    apply(loop, program, handles, ran, op);
                }
                String where = "seed " + seed + ", round " + round;
                IterationRecorder.Iteration actual = recorder.runOneIteration();
                IterationRecorder.Iteration expected = model.runOnce(program, loop.nanoTime());
                if (expected.timeoutNanos() > 0 && expected.timeoutNanos() < DAY_NANOS) {
                    throw new AssertionError("the program only has timers already due or days away");
                }
                assertEquals(List.of(), errors, where);
                assertEquals(expected, actual, where);
                assertEquals(model.ran, ran, where);
                assertEquals(model.ready.size(), loop.readyCount(), where);
                assertEquals(model.heap.size(), loop.scheduledTimerCount(), where);
                assertEquals(model.cancelledInHeap, loop.cancelledTimerCount(), where);
            }
            assertTrue(model.purges > 0, "the program never made the loop purge its cancelled timers");
        }
    }
}
