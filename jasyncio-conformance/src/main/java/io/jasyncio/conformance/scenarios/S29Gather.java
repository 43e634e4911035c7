package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.task.Task;

import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 29: gather with returnExceptions false and true; results in argument order. */
public final class S29Gather extends Scenario {
    @Override
    public String name() {
        return "29_gather";
    }

    private Task<String> job(String name, double delay, boolean fail) {
        return createTask(() -> {
            print(name, "start");
            sleep(delay);
            if (fail) {
                print(name, "failing");
                throw new ValueError(name + " broke");
            }
            print(name, "end");
            return name + "-result";
        });
    }

    private Task<String> job(String name, double delay) {
        return job(name, delay, false);
    }

    private static String show(Object v) {
        return v instanceof Throwable t ? err(t) : String.valueOf(v);
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            List<String> results = await(gather(job("a", 0.25), job("b", 0.05), job("c", 0.15)));
            print("results:", String.join(", ", results));

            Task<String> d = job("d", 0.01);
            Task<String> e = job("e", 0.02, true);
            Task<String> f = job("f", 0.3);
            try {
                await(gather(d, e, f));
            } catch (ValueError ex) {
                print("gather raised:", err(ex));
            }
            print("f done yet:", b(f.isDone()));
            sleep(0.5);
            print("f finished anyway:", b(f.isDone() && !f.isCancelled()));
            print("f result:", f.result());

            List<Object> res = await(gather(true, job("g", 0.15), job("h", 0.02, true)));
            print("g ->", show(res.get(0)));
            print("h ->", show(res.get(1)));

            Task<String> t = job("dup", 0.01);
            List<String> twice = await(gather(t, t));
            print("dup twice:", String.join(", ", twice));

            List<Object> empty = await(gather());
            print("empty: " + empty.size() + " results");
            return null;
        });
    }
}
