package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.sync.Queue;
import io.jasyncio.sync.QueueEmptyException;
import io.jasyncio.sync.QueueFullException;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 37: Queue backpressure, the nowait variants, join/taskDone, FIFO getters. */
public final class S37QueueBackpressure extends Scenario {
    @Override
    public String name() {
        return "37_queue_backpressure";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Queue<Integer> q = new Queue<>(2);
            Task<Void> p = createTask(() -> {
                for (int i = 1; i <= 5; i++) {
                    print("put " + i + " ...");
                    q.put(i);
                    print("put " + i + " done (size " + q.qsize() + ")");
                }
                print("producer finished");
            });
            Task<Void> c = createTask(() -> {
                sleep(0.05);
                for (int i = 0; i < 5; i++) {
                    int v = q.get();
                    print("got " + v + " (size " + q.qsize() + ")");
                    q.taskDone();
                    sleep(0);
                }
            });
            await(p);
            await(c);

            Queue<String> q2 = new Queue<>(1);
            q2.putNowait("a");
            print("full:", b(q2.isFull()));
            try {
                q2.putNowait("b");
            } catch (QueueFullException e) {
                print("put_nowait on full:", errorName(e));
            }
            print("get_nowait:", q2.getNowait());
            try {
                q2.getNowait();
            } catch (QueueEmptyException e) {
                print("get_nowait on empty:", errorName(e));
            }
            print("empty:", b(q2.isEmpty()));

            Queue<String> q3 = new Queue<>();
            for (String item : new String[] {"j1", "j2", "j3"}) {
                q3.putNowait(item);
            }
            Task<Void> w = createTask(() -> {
                for (int i = 0; i < 3; i++) {
                    String item = q3.get();
                    sleep(0.01);
                    print("processed", item);
                    q3.taskDone();
                }
            });
            q3.join();
            print("join returned after all task_done calls");
            await(w);
            try {
                q3.taskDone();
            } catch (IllegalStateException e) {
                print("extra task_done:", "ValueError");
            }

            Queue<String> q4 = new Queue<>();
            List<Task<Void>> gs = new ArrayList<>();
            for (String n : new String[] {"g1", "g2", "g3"}) {
                gs.add(createTask(() -> print(n, "got", q4.get())));
            }
            sleep(0);
            for (String item : new String[] {"p1", "p2", "p3"}) {
                q4.putNowait(item);
            }
            for (Task<Void> g : gs) {
                await(g);
            }
            return null;
        });
    }
}
