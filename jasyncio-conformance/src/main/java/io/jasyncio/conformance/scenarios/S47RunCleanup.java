package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 47: when main returns, run cancels the tasks still pending and awaits them before closing the loop. */
public final class S47RunCleanup extends Scenario {
    private final List<String> records = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String name() {
        return "47_run_cleanup";
    }

    private void background(String name) {
        records.add(name + " started");
        try {
            sleep(10);
        } catch (CancelledError e) {
            records.add(name + " cancelled by run");
            sleep(0);
            records.add(name + " cleanup finished");
            throw e;
        }
    }

    private String stubborn() {
        records.add("stubborn started");
        try {
            sleep(10);
        } catch (CancelledError e) {
            records.add("stubborn swallows cancellation");
            return "stubborn value";
        }
        return null;
    }

    @Override
    protected void run() {
        EventLoop[] holder = {null};
        String value = asyncioRun(() -> {
            holder[0] = getRunningLoop();
            createTask(() -> background("bg1"));
            createTask(this::stubborn);
            createTask(() -> background("bg2"));
            sleep(0.01);
            print("main returns");
            return "main value";
        });
        print("run returned:", value);
        for (String r : records.stream().sorted().toList()) {
            print("  record:", r);
        }
        print("loop closed:", b(holder[0].isClosed()));

        try {
            asyncioRun(() -> {
                sleep(0);
                throw new ValueError("main failed");
            });
        } catch (ValueError e) {
            print("run raised:", err(e));
        }

        asyncioRun(() -> {
            try {
                asyncioRun(() -> 1);
            } catch (IllegalStateException e) {
                print("nested run: RuntimeError");
            }
            return null;
        });
    }
}
