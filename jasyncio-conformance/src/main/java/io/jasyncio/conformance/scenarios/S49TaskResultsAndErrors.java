package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.InvalidStateException;
import io.jasyncio.task.Task;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 49: task results, errors, names and done-callbacks. */
public final class S49TaskResultsAndErrors extends Scenario {
    @Override
    public String name() {
        return "49_task_results_and_errors";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Task<Integer> t = createTask(() -> {
                sleep(0);
                return 42;
            }, "worker-ok");
            print("name:", t.getName());
            print("done before:", b(t.isDone()));
            t.addDoneCallback(f -> print("cb1 sees result", f.result()));
            t.addDoneCallback(f -> print("cb2 sees result", f.result()));
            print("awaited:", await(t));
            sleep(0);
            print("result():", t.result());
            print("exception():", t.exception() == null ? "none" : "set");

            ValueError[] holder = {null};
            Task<Void> ft = createTask(() -> {
                ValueError err = new ValueError("task failed");
                holder[0] = err;
                sleep(0);
                throw err;
            });
            try {
                await(ft);
            } catch (ValueError e) {
                print("same object:", b(e == holder[0]));
            }
            print("exception() same object:", b(ft.exception() == holder[0]));
            try {
                ft.result();
            } catch (ValueError e) {
                print("result() raises:", err(e));
            }

            Task<?>[] self = {null};
            self[0] = createTask(() -> currentTask());
            Task<?> wt = self[0];
            print("current_task is the task:", b(await(wt) == wt));
            wt.setName("new-name");
            print("renamed:", wt.getName());

            Task<Void> lt = createTask(() -> sleep(0.01));
            try {
                lt.result();
            } catch (InvalidStateException e) {
                print("result before done:", errorName(e));
            }
            await(lt);

            try {
                lt.setResult(null);
            } catch (UnsupportedOperationException e) {
                print("set_result on task: RuntimeError");
            }
            return null;
        });
    }
}
