package io.jasyncio.task;

import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The pending tasks of one loop, for {@code allTasks()}. A pending task that nobody references
 * any more may be collected, as with asyncio's {@code _scheduled_tasks} (a WeakSet), but a slot
 * holds a task weakly only when that matters: a task that is queued or running is reachable from
 * the ready queue or the stack anyway, so its slot holds the task itself; only when nothing else
 * may hold it (it waits on a pending future, or the closing loop drops its queued step) does the
 * slot get a {@link WeakReference} to it in its place ({@link #holdWeakly}). A task that
 * never waits on a pending future never has one.
 *
 * <p>Cheaper than a {@code WeakHashMap}: no hashing, and a finished task's slot is emptied at
 * once, so the collector never has to process its reference. A task gets a slot when it is
 * created and gives it back when it finishes; free slots form a linked list through
 * {@link #nextFree}. Slots of tasks collected while pending are reclaimed lazily, before the
 * table grows. Used on the loop's thread only, as the tasks themselves.
 */
final class TaskRegistry {
    private static final int END = -1;

    /** Each slot: null (free), a {@link Task} (held strongly: queued or running) or a {@link WeakReference} to one. */
    private Object[] slots = new Object[64];
    private int[] nextFree = new int[64];
    private int firstFree = END;
    /** Slots below this index have been handed out at least once. */
    private int used;
    /** Tasks registered since the loop began, and those of them not yet finished (collected ones included). */
    private long created;
    private int live;

    /** Registers a new task, held strongly until {@link #holdWeakly}; returns its slot, to give back with {@link #remove}. */
    int add(Task<?> task) {
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
        slots[slot] = task;
        created++;
        live++;
        return slot;
    }

    /** From now on {@code task}'s {@code slot} holds it weakly (a no-op if it does already). */
    void holdWeakly(int slot, Task<?> task) {
        if (slots[slot] == task) {
            slots[slot] = new WeakReference<Task<?>>(task);
        }
    }

    /** Gives back the slot of a task that finished. */
    void remove(int slot) {
        free(slot);
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
            Object held = slots[i];
            Task<?> t = held instanceof WeakReference<?> weak ? (Task<?>) weak.get() : (Task<?>) held;
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
            if (slots[i] instanceof WeakReference<?> weak && weak.refersTo(null)) {
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
