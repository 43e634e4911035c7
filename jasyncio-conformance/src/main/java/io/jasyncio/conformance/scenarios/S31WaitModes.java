package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.DoneAndPending;
import io.jasyncio.task.ReturnWhen;
import io.jasyncio.task.Task;

import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.waitTasks;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 31: wait with FIRST_COMPLETED, FIRST_EXCEPTION, ALL_COMPLETED and a timeout. */
public final class S31WaitModes extends Scenario {
    @Override
    public String name() {
        return "31_wait_modes";
    }

    private static String names(Collection<Task<Double>> tasks) {
        String joined = tasks.stream().map(Task::getName).sorted().collect(Collectors.joining(", "));
        return joined.isEmpty() ? "-" : joined;
    }

    private static Task<Double> job(double delay, boolean fail, String name) {
        return createTask(() -> {
            sleep(delay);
            if (fail) {
                throw new ValueError("boom");
            }
            return delay;
        }, name);
    }

    private static List<Task<Double>> make(boolean failMid) {
        return List.of(job(0.01, false, "fast"), job(0.25, failMid, failMid ? "bad" : "mid"), job(0.5, false, "slow"));
    }

    private void show(String label, DoneAndPending<Task<Double>> r) {
        print(label + " done=" + names(r.done()) + " pending=" + names(r.pending()));
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            DoneAndPending<Task<Double>> r = waitTasks(make(false), ReturnWhen.FIRST_COMPLETED);
            show("FIRST_COMPLETED", r);
            waitTasks(r.pending());

            r = waitTasks(make(true), ReturnWhen.FIRST_EXCEPTION);
            show("FIRST_EXCEPTION", r);
            for (Task<Double> t : r.done()) {
                if (t.getName().equals("bad")) {
                    print("bad exception:", err(t.exception()));
                }
            }
            for (Task<Double> t : r.pending()) {
                t.cancel();
                try {
                    await(t);
                } catch (CancelledError e) {
                    // expected
                }
            }

            r = waitTasks(make(false), ReturnWhen.FIRST_EXCEPTION);
            show("FIRST_EXCEPTION no failure", r);

            r = waitTasks(make(false));
            show("ALL_COMPLETED", r);

            r = waitTasks(make(false), 0.12);
            show("timeout", r);
            print("still running after timeout:", b(r.pending().stream().noneMatch(Task::isDone)));
            for (Task<Double> t : r.pending()) {
                t.cancel();
            }
            waitTasks(r.pending());

            try {
                waitTasks(List.<Task<Double>>of());
            } catch (IllegalArgumentException e) {
                print("empty: ValueError");
            }
            return null;
        });
    }
}
