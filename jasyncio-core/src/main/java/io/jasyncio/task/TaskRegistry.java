package io.jasyncio.task;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The pending tasks of one loop, for {@code allTasks()}. Held weakly, as asyncio's
 * {@code _scheduled_tasks} (a WeakSet): a pending task that nobody references any more may be
 * collected. Each slot holds the task's {@link TaskEntry}, the weak reference that is also its
 * body's entry point, so registering a task allocates nothing of its own.
 *
 * <p>Cheaper than a {@code WeakHashMap}: no hashing, and a finished task's reference is dropped
 * from its slot at once, so the collector never has to process it. A task gets a slot when it is
 * created and gives it back when it finishes; free slots form a linked list through
 * {@link #nextFree}. Slots of tasks collected while pending are reclaimed lazily, before the
 * table grows. Used on the loop's thread only, as the tasks themselves.
 */
final class TaskRegistry {
    private static final int END = -1;

    private TaskEntry[] slots = new TaskEntry[64];
    private int[] nextFree = new int[64];
    private int firstFree = END;
    /** Slots below this index have been handed out at least once. */
    private int used;
    /** Tasks registered since the loop began, and those of them not yet finished (collected ones included). */
    private long created;
    private int live;

    /** Registers a new task by its entry (which remembers its slot, to give back with {@link #remove}). */
    void add(TaskEntry entry) {
        // Full: reclaim collected tasks' slots first; grow unless that freed a good share (so a
        // nearly full table is not rescanned on every add).
        if (firstFree == END && used == slots.length && reclaimCollected() < slots.length / 4) {
            grow();
        }
        int slot;
        if (firstFree != END) {
            slot = firstFree;
            firstFree = nextFree[slot];
        } else {
            slot = used++;
        }
        slots[slot] = entry;
        entry.slot = slot;
        created++;
        live++;
    }

    /** Gives back the slot of a task that finished. */
    void remove(TaskEntry entry) {
        free(entry.slot);
        entry.slot = -1;
    }

    private void free(int slot) {
        live--;
        slots[slot] = null;
        nextFree[slot] = firstFree;
        firstFree = slot;
    }

    /** The registered tasks that are still reachable and not done, in slot order. */
    Set<Task<?>> pending() {
        Set<Task<?>> pending = new LinkedHashSet<>();
        for (int i = 0; i < used; i++) {
            TaskEntry ref = slots[i];
            Task<?> t = ref != null ? ref.get() : null;
            if (t != null && !t.isDone()) {
                pending.add(t);
            }
        }
        return pending;
    }

    long created() {
        return created;
    }

    /** Tasks not finished yet, counting those collected while pending until their slot is reclaimed. */
    int live() {
        return live;
    }

    /** Frees the slots whose task was collected while pending (its reference is cleared); returns how many. */
    private int reclaimCollected() {
        int freed = 0;
        for (int i = 0; i < used; i++) {
            TaskEntry ref = slots[i];
            if (ref != null && ref.refersTo(null)) {
                free(i);
                freed++;
            }
        }
        return freed;
    }

    private void grow() {
        int n = slots.length * 2;
        slots = Arrays.copyOf(slots, n);
        nextFree = Arrays.copyOf(nextFree, n);
    }
}
