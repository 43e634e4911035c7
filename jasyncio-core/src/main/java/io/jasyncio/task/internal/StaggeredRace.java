package io.jasyncio.task.internal;

import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * asyncio's {@code staggered.staggered_race}, the engine of happy eyeballs (RFC 8305): attempts
 * start one after another, each {@code delay} seconds after the previous one started, or at once
 * when the previous one failed; the first to succeed wins and every other one still running is
 * cancelled.
 *
 * <p>An attempt that succeeds after another has won (they can finish in the same iteration) has
 * its result handed to {@code discard} (a connected socket must be closed, not leaked), and so
 * does every success when the racing task itself is cancelled.
 */
public final class StaggeredRace {

    /**
     * How a race ended: the winner's result and index ({@code -1} and null when every attempt
     * failed), and each attempt's exception by index (null for the winner and for attempts that
     * never started or were cancelled by the race).
     */
    public record Outcome<T>(T winner, int winnerIndex, List<Throwable> exceptions) {
        public boolean won() {
            return winnerIndex >= 0;
        }
    }

    private StaggeredRace() {
    }

    /** Coroutine: runs the race on the running task's loop and returns when it is decided. */
    public static <T> Outcome<T> race(EventLoop loop, List<? extends Coroutine<T>> attempts, double delaySeconds,
                                      Consumer<? super T> discard) {
        if (Double.isNaN(delaySeconds) || delaySeconds < 0) {
            throw new IllegalArgumentException("delay must be a number >= 0, not " + delaySeconds);
        }
        return new Run<>(loop, attempts, discard).race(delaySeconds);
    }

    /** One race's state, touched only on the loop thread. */
    private static final class Run<T> {
        private final EventLoop loop;
        private final List<? extends Coroutine<T>> attempts;
        private final Consumer<? super T> discard;
        private final List<Task<T>> started = new ArrayList<>();
        private final Throwable[] exceptions;
        private int winner = -1;
        private T winnerValue;
        private boolean over;       // decided, or the racing task left: later successes are discarded
        private int finished;
        private Future<Void> wake;  // set when it is time to look again: a win, a failure, a timer

        Run(EventLoop loop, List<? extends Coroutine<T>> attempts, Consumer<? super T> discard) {
            this.loop = loop;
            this.attempts = attempts;
            this.discard = discard;
            this.exceptions = new Throwable[attempts.size()];
        }

        Outcome<T> race(double delaySeconds) {
            try {
                while (winner < 0 && started.size() < attempts.size()) {
                    wake = loop.createFuture();
                    start(started.size());
                    if (started.size() < attempts.size()) { // the next starts after the delay, or when this one fails
                        TimerHandle timer = loop.callLater(delaySeconds, this::wakeUp);
                        try {
                            Tasks.await(wake);
                        } finally {
                            timer.cancel();
                        }
                    }
                }
                while (winner < 0 && finished < started.size()) { // all started: wait for a win or the end
                    wake = loop.createFuture();
                    Tasks.await(wake);
                }
            } finally {
                over = true;
                for (Task<T> t : started) {
                    t.cancel(); // the winner and the failed are done already: a no-op for them
                }
            }
            return new Outcome<>(winnerValue, winner, Arrays.asList(exceptions.clone()));
        }

        private void start(int index) {
            Task<T> task = Tasks.create(loop, attempts.get(index), null, null);
            started.add(task);
            Task<?> racer = Task.current(); // awaits each attempt through the race (call graphs), as asyncio records it
            if (racer != null) {
                task.addAwaitedBy(racer);
            }
            task.addDoneCallback(t -> attemptDone(index, t, racer));
        }

        private void attemptDone(int index, Future<T> attempt, Task<?> racer) {
            if (racer != null) {
                attempt.discardAwaitedBy(racer);
            }
            finished++;
            if (!attempt.isCancelled() && attempt.exception() == null) {
                if (over || winner >= 0) {
                    discard.accept(attempt.result()); // lost by a hair, or nobody waits any more
                    return;
                }
                winner = index;
                winnerValue = attempt.result();
                wakeUp();
                return;
            }
            if (!attempt.isCancelled() && !(attempt.exception() instanceof CancelledError)) {
                exceptions[index] = attempt.exception();
            }
            boolean latest = index == started.size() - 1;
            if (latest || started.size() == attempts.size()) {
                wakeUp(); // as asyncio: only the latest attempt's failure starts the next one early
            }
        }

        private void wakeUp() {
            Future<Void> w = wake;
            if (w != null && !w.isDone()) {
                w.setResult(null);
            }
        }
    }
}
