package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 13: awaiting something that is already done does not yield. */
public final class S13AwaitDoneNoYield extends Scenario {
    @Override
    public String name() {
        return "13_await_done_no_yield";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Future<String> ready = getRunningLoop().createFuture();
            ready.setResult("cached");
            Task<String> finished = createTask(() -> "task value");
            print("finished task awaited:", await(finished));

            Task<Void> ta = createTask(() -> {
                print("A start");
                for (int k = 1; k <= 3; k++) {
                    String v = await(ready);
                    print("A got " + v + " (" + k + ")");
                }
                print("A got", await(finished));
                sleep(0);
                print("A after sleep(0)");
            });
            Task<Void> tb = createTask(() -> {
                print("B start");
                sleep(0);
                print("B after sleep(0)");
            });
            await(ta);
            await(tb);
            print("main done");
            return null;
        });
    }
}
