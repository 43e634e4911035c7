package io.jasyncio.junit;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.util.Throwables;
import io.jasyncio.task.Runner;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Runs one test or lifecycle method as the main task of a {@link Runner} run, under a deadline.
 *
 * <p>When the deadline passes, the task is cancelled: the {@link CancelledError} lands at the
 * await the method is stuck in, and is turned into a {@link TimeoutException} that names what it
 * was awaiting, with the CancelledError (whose stack shows the method's line) as its cause. A
 * method that swallows the cancellation and stays pending gets {@link #GRACE_SECONDS} more; then
 * the loop is stopped under it and the test fails all the same.
 */
final class MainTask {
    /** How long a cancelled method may take to end before the loop is stopped under it. */
    static final double GRACE_SECONDS = 1.0;

    private final String methodName;
    private final double timeout;
    private RealTimeDeadline deadline; // real time even on a virtual clock: the timeout is real seconds
    private RealTimeDeadline grace;
    private String awaiting; // set when the deadline passed: what the task was stuck in
    private boolean abandoned; // set when the grace period passed too and the loop was stopped
    private boolean finished; // the body ended: a deadline already on its way to the loop is stale

    private MainTask(String methodName, double timeout) {
        this.methodName = methodName;
        this.timeout = timeout;
    }

    /**
     * Runs {@code invocation} on {@code runner}'s loop; rethrows its failure unchanged. Calls
     * {@code onAbandoned} if the method outlived its cancellation (it is still pending on the loop).
     */
    static void run(Runner runner, Invocation<Void> invocation, String methodName, double timeout,
                    Runnable onAbandoned) throws Throwable {
        if (!(timeout > 0)) {
            throw new IllegalArgumentException("@AsyncTest timeout must be > 0 seconds, not " + timeout);
        }
        MainTask main = new MainTask(methodName, timeout);
        EventLoop loop = runner.getLoop();
        try {
            runner.run(() -> main.body(loop, invocation));
        } catch (IllegalStateException stopped) {
            if (!main.abandoned) {
                throw stopped; // the body's own failure, or it stopped the loop itself
            }
            onAbandoned.run();
            throw main.failure(" and did not end within " + seconds(GRACE_SECONDS)
                    + " of being cancelled (does it catch CancelledError and carry on?)");
        }
    }

    private Void body(EventLoop loop, Invocation<Void> invocation) {
        Task<?> self = Tasks.current();
        deadline = RealTimeDeadline.after(timeout, loop, () -> expire(loop, self));
        try {
            invocation.proceed();
            return null;
        } catch (CancelledError cancelled) {
            if (awaiting == null) {
                throw cancelled; // cancelled by someone else: report it as it is
            }
            TimeoutException failure = failure("");
            failure.initCause(cancelled);
            throw Throwables.sneakyThrow(failure);
        } catch (Throwable t) {
            throw Throwables.sneakyThrow(t);
        } finally {
            finished = true;
            deadline.cancel();
            if (grace != null) {
                grace.cancel();
            }
        }
    }

    private void expire(EventLoop loop, Task<?> self) {
        if (finished) {
            return;
        }
        awaiting = describeAwaiting(self);
        self.cancel("@AsyncTest timeout");
        grace = RealTimeDeadline.after(GRACE_SECONDS, loop, () -> {
            if (!finished) {
                abandoned = true;
                loop.stop();
            }
        });
    }

    private TimeoutException failure(String more) {
        return new TimeoutException(methodName + " timed out after " + seconds(timeout) + more + "; " + awaiting);
    }

    /** The chain of awaits the task is stuck in: the future it awaits, and on down through tasks. */
    static String describeAwaiting(Task<?> task) {
        Future<?> awaited = task.waitingOn();
        if (awaited == null) {
            return "it was not awaiting anything: it was ready to run again (a loop around sleep(0)?)";
        }
        StringBuilder text = new StringBuilder("it was awaiting ").append(awaited);
        Set<Future<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        seen.add(task);
        while (awaited instanceof Task<?> inner && seen.add(inner) && inner.waitingOn() != null) {
            awaited = inner.waitingOn();
            text.append(",\n  which was awaiting ").append(awaited);
        }
        return text.toString();
    }

    /** "10 seconds", "0.25 seconds", "1 second". */
    static String seconds(double s) {
        String number = s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s);
        return number + (s == 1 ? " second" : " seconds");
    }
}
