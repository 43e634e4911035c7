package io.jasyncio.sync;

import io.jasyncio.loop.Future;
import io.jasyncio.task.Tasks;

import java.util.Collection;

/** The waiter-queue steps the primitives share, written once. */
final class Waiters {
    private Waiters() {
    }

    /**
     * Suspends the calling task until {@code waiter} completes, keeping it in {@code waiters} while
     * it waits (and taking it out however the wait ends, cancellation included).
     */
    static void awaitQueued(Future<Void> waiter, Collection<Future<Void>> waiters) {
        waiters.add(waiter);
        try {
            Tasks.await(waiter);
        } finally {
            waiters.remove(waiter);
        }
    }

    /** Wakes the first {@code n} waiters not woken yet (fewer if there are fewer); returns how many it woke. */
    static int wake(Collection<Future<Void>> waiters, int n) {
        int woken = 0;
        for (Future<Void> w : waiters) {
            if (woken >= n) {
                break;
            }
            if (!w.isDone()) {
                woken++;
                w.setResult(null);
            }
        }
        return woken;
    }

    /** Whether some waiter still waits for real (cancelled ones are leaving and do not count). */
    static boolean anyNotCancelled(Collection<Future<Void>> waiters) {
        for (Future<Void> w : waiters) {
            if (!w.isCancelled()) {
                return true;
            }
        }
        return false;
    }
}
