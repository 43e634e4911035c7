package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.Task;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 19: cancelling() counts pending cancellation requests; uncancel() decrements it. */
public final class S19CancellingUncancel extends Scenario {
    @Override
    public String name() {
        return "19_cancelling_uncancel";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Task<String> t = createTask(() -> {
                try {
                    sleep(10);
                } catch (CancelledError e) {
                    Task<?> me = currentTask();
                    print("target caught, cancelling=" + me.cancelling());
                    print("uncancel ->", me.uncancel());
                    print("uncancel ->", me.uncancel());
                    print("target continues after swallowing");
                }
                sleep(0.01);
                return "target survived";
            });
            sleep(0.01);
            print("cancelling before:", t.cancelling());
            print("first cancel:", b(t.cancel()));
            print("second cancel:", b(t.cancel()));
            print("cancelling now:", t.cancelling());
            print("result:", await(t));
            print("target cancelled:", b(t.isCancelled()));
            print("cancelling after:", t.cancelling());
            print("cancel finished task:", b(t.cancel()));
            print("cancelling still:", t.cancelling());

            Task<Void> v = createTask(() -> {
                try {
                    sleep(10);
                } catch (CancelledError e) {
                    print("victim caught, cancelling=" + currentTask().cancelling());
                    throw e;
                }
            });
            sleep(0);
            v.cancel();
            try {
                await(v);
            } catch (CancelledError e) {
                // expected
            }
            print("victim cancelled: " + b(v.isCancelled()) + ", cancelling=" + v.cancelling());
            return null;
        });
    }
}
