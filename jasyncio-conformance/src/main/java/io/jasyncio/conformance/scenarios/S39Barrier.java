package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.sync.Barrier;
import io.jasyncio.sync.BrokenBarrierException;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 39: Barrier releases all parties with their arrival index, is reusable, and abort breaks it. */
public final class S39Barrier extends Scenario {
    @Override
    public String name() {
        return "39_barrier";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Barrier barrier = new Barrier(3);
            Map<String, Integer> results = new TreeMap<>();
            round(barrier, results, new String[] {"p1", "p2", "p3"}, new double[] {0.01, 0.1, 0.2});
            print("barrier broken:", b(barrier.isBroken()));

            results.clear();
            round(barrier, results, new String[] {"q1", "q2", "q3"}, new double[] {0, 0.05, 0.1});

            Barrier b3 = new Barrier(3);
            List<Task<Void>> rs = new ArrayList<>();
            for (String n : new String[] {"r1", "r2"}) {
                rs.add(createTask(() -> {
                    try {
                        b3.await();
                    } catch (BrokenBarrierException e) {
                        print(n, "got", errorName(e));
                    }
                }));
            }
            sleep(0.01);
            b3.abort();
            for (Task<Void> r : rs) {
                await(r);
            }
            print("barrier broken:", b(b3.isBroken()));
            return null;
        });
    }

    private void round(Barrier barrier, Map<String, Integer> results, String[] names, double[] delays) {
        List<Task<Void>> ts = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            String name = names[i];
            double delay = delays[i];
            ts.add(createTask(() -> {
                sleep(delay);
                print(name + " arrives (waiting before: " + barrier.nWaiting() + ")");
                results.put(name, barrier.await());
            }));
        }
        for (Task<Void> t : ts) {
            await(t);
        }
        results.forEach((name, index) -> print(name, "index", index));
    }
}
