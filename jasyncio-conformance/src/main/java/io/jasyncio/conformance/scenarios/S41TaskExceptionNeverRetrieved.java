package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;

/**
 * Scenario 41: a failed task whose exception is never retrieved is reported when the task is
 * garbage-collected. The JVM collects when it likes, so the port asks for collections repeatedly
 * (bounded) until both reports have arrived through the loop.
 */
public final class S41TaskExceptionNeverRetrieved extends Scenario {
    private static final int EXPECTED_REPORTS = 2;
    private static final int MAX_COLLECTIONS = 100;

    @Override
    public String name() {
        return "41_task_exception_never_retrieved";
    }

    /** Creates the four tasks and handles two; returns with no reference to any of them left. */
    private void failFourHandleTwo() {
        Map<String, Task<Void>> tasks = new LinkedHashMap<>();
        for (String name : new String[] {"lost", "awaited", "inspected", "lost2"}) {
            tasks.put(name, createTask(() -> {
                throw new ValueError(name);
            }));
        }
        sleep(0.05);
        try {
            await(tasks.get("awaited"));
        } catch (ValueError e) {
            // retrieved
        }
        tasks.get("inspected").exception();
        tasks.clear();
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            List<String> reports = Collections.synchronizedList(new ArrayList<>());
            getRunningLoop().setExceptionHandler((loop, context) -> {
                if (context.get("exception") instanceof Throwable error) {
                    reports.add(context.get("message") + " | " + err(error));
                }
            });
            failFourHandleTwo();
            for (int i = 0; i < MAX_COLLECTIONS && reports.size() < EXPECTED_REPORTS; i++) {
                System.gc();
                sleep(0.02); // the cleaner thread reports through callSoonThreadsafe
            }
            sleep(0.2);
            print("reports:", reports.size());
            for (String r : reports.stream().sorted().toList()) {
                print("  " + r);
            }
            return null;
        });
    }
}
