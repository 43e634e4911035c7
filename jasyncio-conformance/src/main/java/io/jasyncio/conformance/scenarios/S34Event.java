package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.sync.Event;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 34: Event.set wakes every waiter in order; waiting on a set event does not yield. */
public final class S34Event extends Scenario {
    @Override
    public String name() {
        return "34_event";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Event ev = new Event();
            List<Task<Void>> ws = new ArrayList<>();
            for (String n : new String[] {"w1", "w2", "w3"}) {
                ws.add(createTask(() -> {
                    print(n, "waiting");
                    ev.await();
                    print(n, "woke");
                }));
            }
            sleep(0);
            print("is_set before:", b(ev.isSet()));
            ev.set();
            print("set called");
            for (Task<Void> w : ws) {
                await(w);
            }

            Task<Void> t1 = createTask(() -> {
                print("fast start");
                ev.await();
                ev.await();
                print("fast passed both waits");
                sleep(0);
                print("fast end");
            });
            Task<Void> t2 = createTask(() -> print("other runs"));
            await(t1);
            await(t2);

            ev.clear();
            print("is_set after clear:", b(ev.isSet()));
            Task<Void> lw = createTask(() -> {
                ev.await();
                print("late woke");
            });
            sleep(0.01);
            print("setting again");
            ev.set();
            await(lw);

            ev.clear();
            Task<Void> q = createTask(() -> {
                print("quick_flip waiting");
                ev.await();
                print("quick_flip woke");
            });
            sleep(0);
            ev.set();
            ev.clear();
            await(q);
            return null;
        });
    }
}
