package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.sync.BoundedSemaphore;
import io.jasyncio.sync.Semaphore;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 35: Semaphore admits FIFO up to its value; BoundedSemaphore refuses extra releases. */
public final class S35Semaphore extends Scenario {
    private int active;
    private int peak;

    @Override
    public String name() {
        return "35_semaphore";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Semaphore sem = new Semaphore(2);
            List<Task<Void>> ws = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                String name = "w" + i;
                ws.add(createTask(() -> {
                    print(name, "wants");
                    sem.withPermit(() -> {
                        active++;
                        peak = Math.max(peak, active);
                        print(name + " in (active=" + active + ")");
                        sleep(0);
                        sleep(0);
                        active--;
                        print(name, "out");
                    });
                }));
            }
            for (Task<Void> w : ws) {
                await(w);
            }
            print("peak:", peak);
            print("locked at end:", b(sem.locked()));

            Semaphore s0 = new Semaphore(0);
            print("s0 locked:", b(s0.locked()));
            Task<Void> gate = createTask(() -> {
                print("gate waiting");
                s0.acquire();
                print("gate passed");
            });
            sleep(0.01);
            print("releasing");
            s0.release();
            await(gate);

            BoundedSemaphore bs = new BoundedSemaphore(1);
            bs.acquire();
            bs.release();
            try {
                bs.release();
            } catch (IllegalStateException e) {
                print("extra release:", "ValueError");
            }
            Semaphore ps = new Semaphore(1);
            ps.release();
            print("plain semaphore extra release: ok");

            try {
                new Semaphore(-1);
            } catch (IllegalArgumentException e) {
                print("negative value:", "ValueError");
            }
            return null;
        });
    }
}
