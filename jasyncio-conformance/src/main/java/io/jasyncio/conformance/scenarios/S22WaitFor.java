package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.TimeoutException;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;

/** Scenario 22: waitFor returns the result in time, or cancels the work, waits for its cleanup, and raises. */
public final class S22WaitFor extends Scenario {
    @Override
    public String name() {
        return "22_wait_for";
    }

    @Override
    protected void run() throws Exception {
        asyncioRun(() -> {
            Coroutine<String> quick = () -> {
                sleep(0.01);
                return "quick value";
            };
            print("in time:", waitFor(quick, 1.0));

            Coroutine<Void> slow = () -> {
                print("slow started");
                try {
                    sleep(10);
                } catch (CancelledError e) {
                    print("slow cancelled, cleaning up");
                    sleep(0.01);
                    print("slow cleanup done");
                    throw e;
                }
                return null;
            };
            try {
                waitFor(slow, 0.05);
            } catch (TimeoutException e) {
                print("caught TimeoutError");
            }

            print("no timeout:", waitFor(quick, null));

            Future<Object> fut = getRunningLoop().createFuture();
            try {
                waitFor(fut, 0.01);
            } catch (TimeoutException e) {
                print("future cancelled by wait_for:", b(fut.isCancelled()));
            }

            try {
                waitFor((Coroutine<Void>) () -> {
                    print("BODY RAN");
                    return null;
                }, 0.0);
            } catch (TimeoutException e) {
                print("timeout 0:", err(e));
            }

            try {
                waitFor((Coroutine<Void>) () -> {
                    sleep(0.01);
                    throw new ValueError("nope");
                }, 1.0);
            } catch (ValueError e) {
                print("failure passes through:", err(e));
            }
            return null;
        });
    }
}
