package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.task.Task;
import io.jasyncio.task.Timeout;
import io.jasyncio.task.TimeoutException;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.timeout;

/** Scenario 25: nested timeouts, and a timeout block cancelled from outside. */
public final class S25NestedTimeouts extends Scenario {
    @Override
    public String name() {
        return "25_nested_timeouts";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Timeout outer1 = timeout(2);
            Timeout[] inner1 = {null};
            outer1.run(() -> {
                try {
                    inner1[0] = timeout(0.02);
                    inner1[0].run(() -> sleep(10));
                } catch (TimeoutException e) {
                    print("1 inner timed out, caught inside outer");
                }
                sleep(0.01);
                print("1 outer body continues");
            });
            print("1 outer expired:", b(outer1.expired()));
            print("1 inner expired:", b(inner1[0].expired()));

            Timeout outer2 = timeout(0.02);
            Timeout[] inner2 = {null};
            try {
                outer2.run(() -> {
                    try {
                        inner2[0] = timeout(2);
                        inner2[0].run(() -> {
                            try {
                                sleep(10);
                            } catch (CancelledError e) {
                                print("2 innermost sees CancelledError");
                                throw e;
                            }
                        });
                    } catch (TimeoutException e) {
                        print("2 WRONG: inner converted");
                    } catch (CancelledError e) {
                        print("2 inner block let CancelledError through");
                        throw e;
                    }
                });
            } catch (TimeoutException e) {
                print("2 outer converted it: TimeoutError");
            }
            print("2 outer expired:", b(outer2.expired()));
            print("2 inner expired:", b(inner2[0].expired()));

            Timeout[] holder = {null};
            Task<Void> g = createTask(() -> {
                holder[0] = timeout(2);
                holder[0].run(() -> sleep(10));
            });
            sleep(0.01);
            g.cancel();
            try {
                await(g);
            } catch (CancelledError e) {
                // expected
            } catch (TimeoutException e) {
                print("3 WRONG: TimeoutError");
            }
            print("3 guarded cancelled:", b(g.isCancelled()));
            print("3 timeout expired:", b(holder[0].expired()));
            return null;
        });
    }
}
