package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.shield;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 21: shield protects the inner work from the caller's cancellation. */
public final class S21Shield extends Scenario {
    @Override
    public String name() {
        return "21_shield";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Task<String> w = createTask(() -> {
                print("work started");
                sleep(0.3);
                print("work finished");
                return "work result";
            });
            Task<String> c = createTask(() -> {
                try {
                    return await(shield(w));
                } catch (CancelledError e) {
                    print("caller cancelled while shielded");
                    throw e;
                }
            });
            sleep(0.01);
            c.cancel();
            try {
                await(c);
            } catch (CancelledError e) {
                // expected
            }
            print("caller cancelled:", b(c.isCancelled()));
            print("work done yet:", b(w.isDone()));
            print("work result after all:", await(w));
            print("work cancelled:", b(w.isCancelled()));

            Task<Void> s = createTask(() -> sleep(10));
            Future<Void> f = shield(s);
            sleep(0.01);
            s.cancel();
            try {
                await(f);
            } catch (CancelledError e) {
                // expected
            }
            print("shield future cancelled:", b(f.isCancelled()));

            try {
                await(shield(createTask(() -> {
                    sleep(0.01);
                    throw new ValueError("inner failure");
                })));
            } catch (ValueError e) {
                print("shield raised:", err(e));
            }

            print("shield of done task:", await(shield(w)));
            return null;
        });
    }
}
