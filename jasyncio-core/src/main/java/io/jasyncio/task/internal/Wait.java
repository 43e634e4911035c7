package io.jasyncio.task.internal;

import io.jasyncio.task.DoneAndPending;
import io.jasyncio.task.ReturnWhen;
import io.jasyncio.task.Tasks;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Waits for a set of futures without consuming them, as asyncio's {@code wait}: it never raises
 * their exceptions and never cancels them, it only sorts them into done and pending.
 */
public final class Wait {
    private Wait() {
    }

    /**
     * Suspends the calling task until {@code returnWhen} is satisfied or {@code timeout} seconds
     * pass (null: no limit), then returns the done and pending futures. A timeout is not an
     * error: the pending set says what did not finish. An empty collection is refused, as asyncio
     * does.
     */
    public static <F extends Future<?>> DoneAndPending<F> wait(Collection<F> futures, Double timeout,
                                                            ReturnWhen returnWhen) {
        Objects.requireNonNull(returnWhen, "returnWhen");
        if (futures.isEmpty()) {
            throw new IllegalArgumentException("Set of Tasks/Futures is empty.");
        }
        Set<F> fs = new LinkedHashSet<>(futures);
        EventLoop loop = EventLoops.getRunningLoop();
        for (F f : fs) {
            if (f.getLoop() != loop) {
                throw new IllegalArgumentException("wait: " + f + " belongs to another loop");
            }
        }
        Future<Void> waiter = loop.createFuture();
        TimerHandle timer = timeout == null ? null : loop.callLater(timeout, () -> release(waiter));
        int[] remaining = {fs.size()};
        Consumer<Future<?>> onCompletion = f -> {
            remaining[0]--;
            if (remaining[0] <= 0
                    || returnWhen == ReturnWhen.FIRST_COMPLETED
                    || returnWhen == ReturnWhen.FIRST_EXCEPTION && !f.isCancelled() && f.exception() != null) {
                release(waiter); // the timer is cancelled when the await returns; a late tick is a no-op
            }
        };
        for (F f : fs) {
            f.addDoneCallback(onCompletion);
        }
        try {
            Tasks.await(waiter);
        } finally {
            if (timer != null) {
                timer.cancel();
            }
            for (F f : fs) {
                f.removeDoneCallback(onCompletion);
            }
        }
        Set<F> done = new LinkedHashSet<>();
        Set<F> pending = new LinkedHashSet<>();
        for (F f : fs) {
            (f.isDone() ? done : pending).add(f);
        }
        return new DoneAndPending<>(done, pending);
    }

    private static void release(Future<Void> waiter) {
        if (!waiter.isDone()) {
            waiter.setResult(null);
        }
    }
}
