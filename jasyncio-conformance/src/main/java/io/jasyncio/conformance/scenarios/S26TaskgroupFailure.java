package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.ExceptionGroup;
import io.jasyncio.task.Task;
import io.jasyncio.task.TaskGroup;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.sleep;

/** Scenario 26: a failing child cancels its siblings; the group raises one ExceptionGroup with every failure. */
public final class S26TaskgroupFailure extends Scenario {
    private final List<String> cancelled = new ArrayList<>();
    private final List<String> cleaned = new ArrayList<>();

    @Override
    public String name() {
        return "26_taskgroup_failure";
    }

    private void report() {
        print("cancelled:", String.join(", ", cancelled.stream().sorted().toList()));
        print("cleaned:", String.join(", ", cleaned.stream().sorted().toList()));
        cancelled.clear();
        cleaned.clear();
    }

    private void printGroup(ExceptionGroup eg, String indent) {
        print(indent + "ExceptionGroup: " + eg.message());
        for (Throwable e : eg.exceptions()) {
            if (e instanceof ExceptionGroup nested) {
                printGroup(nested, indent + "  ");
            } else {
                print(indent + "  " + err(e));
            }
        }
    }

    private String child(String name, double delay, boolean fail) {
        print(name, "start");
        try {
            sleep(delay);
            if (fail) {
                print(name, "raising");
                throw new ValueError(name + " failed");
            }
        } catch (CancelledError e) {
            cancelled.add(name);
            sleep(0);
            cleaned.add(name);
            throw e;
        }
        return name;
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            List<Task<String>> kept = new ArrayList<>();
            try {
                TaskGroup.run(tg -> {
                    kept.add(tg.createTask(() -> child("a", 10, false)));
                    tg.createTask(() -> child("b", 0.02, true));
                    kept.add(tg.createTask(() -> child("c", 10, false)));
                    print("body done, waiting for children");
                });
            } catch (ExceptionGroup eg) {
                printGroup(eg, "");
            }
            report();
            print("a cancelled:", b(kept.get(0).isCancelled()));
            print("c cancelled:", b(kept.get(1).isCancelled()));

            try {
                TaskGroup.run(tg -> {
                    tg.createTask(() -> child("x", 0.5, true));
                    tg.createTask(() -> child("y", 0.01, true));
                });
            } catch (ExceptionGroup eg) {
                printGroup(eg, "");
            }
            report();

            try {
                TaskGroup.run(tg -> {
                    tg.createTask(() -> child("p", 0.01, true));
                    tg.createTask(() -> {
                        print("q start");
                        try {
                            sleep(10);
                        } catch (CancelledError e) {
                            print("q cancelled, raising its own error");
                            throw new RuntimeError("q failed during cleanup");
                        }
                    });
                });
            } catch (ExceptionGroup eg) {
                printGroup(eg, "");
            }

            List<Task<String>> results = new ArrayList<>();
            TaskGroup.run(tg -> {
                for (String v : new String[] {"r1", "r2"}) {
                    results.add(tg.createTask(() -> {
                        sleep(0.01);
                        return v;
                    }));
                }
            });
            print("results:", results.get(0).result(), results.get(1).result());
            return null;
        });
    }
}
