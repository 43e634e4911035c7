package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.sync.Lock;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 33: Lock is FIFO-fair; a cancelled waiter is skipped; releasing an unlocked lock fails. */
public final class S33LockFifo extends Scenario {
    @Override
    public String name() {
        return "33_lock_fifo";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Lock lock = new Lock();
            List<Task<Void>> tasks = new ArrayList<>();
            tasks.add(createTask(() -> {
                lock.acquire();
                print("holder acquired");
                sleep(0);
                sleep(0);
                lock.release();
                print("holder released");
                lock.acquire();
                print("holder re-acquired");
                sleep(0);
                lock.release();
            }));
            for (String n : new String[] {"w1", "w2", "w3"}) {
                tasks.add(createTask(() -> worker(lock, n)));
            }
            for (Task<Void> t : tasks) {
                await(t);
            }
            print("locked at end:", b(lock.locked()));

            lock.acquire();
            Map<String, Task<Void>> xs = new LinkedHashMap<>();
            for (String n : new String[] {"x", "y", "z"}) {
                xs.put(n, createTask(() -> worker(lock, n)));
            }
            sleep(0);
            xs.get("y").cancel();
            print("y cancel requested");
            lock.release();
            for (Task<Void> t : xs.values()) {
                try {
                    await(t);
                } catch (CancelledError e) {
                    // y's
                }
            }
            print("y cancelled:", b(xs.get("y").isCancelled()));
            print("locked at end:", b(lock.locked()));

            try {
                lock.release();
            } catch (IllegalStateException e) {
                print("release unlocked:", "RuntimeError");
            }
            return null;
        });
    }

    private void worker(Lock lock, String name) {
        print(name, "wants");
        lock.acquire();
        print(name, "acquired");
        sleep(0);
        lock.release();
        print(name, "released");
    }
}
