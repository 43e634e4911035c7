package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 18: cancel(msg) carries its message to the cancelled code and to whoever awaits the task. */
public final class S18CancelMessage extends Scenario {
    @Override
    public String name() {
        return "18_cancel_message";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Task<Void> t = createTask(() -> {
                try {
                    sleep(10);
                } catch (CancelledError e) {
                    print("waiter sees:", err(e));
                    throw e;
                }
            });
            sleep(0.01);
            t.cancel("shutting down");
            try {
                await(t);
            } catch (CancelledError e) {
                print("main sees:", err(e));
            }

            Future<Object> f = getRunningLoop().createFuture();
            Task<String> h = createTask(() -> {
                try {
                    await(f);
                } catch (CancelledError e) {
                    print("holder sees:", err(e));
                }
                return "recovered";
            });
            sleep(0);
            f.cancel("future gone");
            print("holder result:", await(h));
            print("holder cancelled:", b(h.isCancelled()));

            Task<Void> n = createTask(() -> sleep(10));
            sleep(0);
            n.cancel();
            try {
                await(n);
            } catch (CancelledError e) {
                print("nomsg:", err(e));
            }
            return null;
        });
    }
}
