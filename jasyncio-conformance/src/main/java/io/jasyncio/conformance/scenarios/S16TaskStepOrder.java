package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.task.Task;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 16: tasks step round-robin in creation order; a task made during a step queues last. */
public final class S16TaskStepOrder extends Scenario {
    @Override
    public String name() {
        return "16_task_step_order";
    }

    private String worker(String name, int n) {
        for (int i = 0; i < n; i++) {
            print(name, "step", i);
            sleep(0);
        }
        return name + " finished";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Map<String, Task<String>> tasks = new LinkedHashMap<>();
            tasks.put("A", createTask(() -> worker("A", 3)));
            tasks.put("B", createTask(() -> worker("B", 2)));
            tasks.put("C", createTask(() -> worker("C", 3)));
            print("created, A done:", b(tasks.get("A").isDone()));
            sleep(0);
            print("main after first yield");
            tasks.put("D", createTask(() -> {
                print("D step 0");
                tasks.put("E", createTask(() -> worker("E", 2)));
                print("D spawned E");
                sleep(0);
                print("D step 1");
                return "D finished";
            }));
            for (String name : new String[] {"A", "B", "C", "D", "E"}) {
                print("result:", await(tasks.get(name)));
            }
            return null;
        });
    }
}
