package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.ExceptionGroup;
import io.jasyncio.task.Task;
import io.jasyncio.task.TaskGroup;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 28: cancelling, from outside, a task that is inside a TaskGroup. */
public final class S28TaskgroupExternalCancel extends Scenario {
    private final List<String> records = new ArrayList<>();

    @Override
    public String name() {
        return "28_taskgroup_external_cancel";
    }

    private void report() {
        for (String r : records.stream().sorted().toList()) {
            print("  record:", r);
        }
        records.clear();
    }

    private void member(String name) {
        print(name, "start");
        try {
            sleep(10);
        } catch (CancelledError e) {
            records.add(name + " cancelled");
            sleep(0);
            records.add(name + " cleanup done");
            throw e;
        }
    }

    private void bad() {
        print("bad start");
        try {
            sleep(10);
        } catch (CancelledError e) {
            records.add("bad fails during cancel");
            throw new ValueError("bad cleanup");
        }
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Task<Void> r = createTask(() -> {
                try {
                    TaskGroup.run(tg -> {
                        tg.createTask(() -> member("m1"));
                        tg.createTask(() -> member("m2"));
                        print("runner body waiting");
                        sleep(10);
                    });
                } catch (CancelledError e) {
                    print("runner got CancelledError (not an ExceptionGroup)");
                    throw e;
                }
            });
            sleep(0.02);
            r.cancel();
            try {
                await(r);
            } catch (CancelledError e) {
                // expected
            }
            print("runner cancelled:", b(r.isCancelled()));
            report();

            Task<Void> r2 = createTask(() -> {
                try {
                    TaskGroup.run(tg -> {
                        tg.createTask(() -> member("m3"));
                        tg.createTask(this::bad);
                        sleep(10);
                    });
                } catch (ExceptionGroup eg) {
                    print("runner2 got ExceptionGroup:",
                            eg.exceptions().stream().map(e -> err(e)).collect(Collectors.joining(", ")));
                    throw eg;
                }
            });
            sleep(0.02);
            r2.cancel();
            try {
                await(r2);
            } catch (ExceptionGroup eg) {
                print("runner2 failed with the group:", b(r2.exception() instanceof ExceptionGroup));
            }
            print("runner2 cancelled:", b(r2.isCancelled()));
            report();
            return null;
        });
    }
}
