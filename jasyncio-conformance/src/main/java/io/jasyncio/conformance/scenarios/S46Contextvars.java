package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.context.Context;
import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Task;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 46: tasks run in a copy of the context taken at creation; callbacks in one taken at scheduling. */
public final class S46Contextvars extends Scenario {
    private final ContextVar<String> requestId = ContextVar.withDefault("request_id", "none");

    @Override
    public String name() {
        return "46_contextvars";
    }

    private void show(String label) {
        print(label, "sees", requestId.get());
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            EventLoop loop = getRunningLoop();
            requestId.set("main-1");
            Task<Void> ta = createTask(() -> {
                print("child_a sees", requestId.get());
                requestId.set("a-changed");
                sleep(0);
                print("child_a after yield sees", requestId.get());
            });
            requestId.set("main-2");
            Task<Void> tb = createTask(() -> print("child_b sees", requestId.get()));
            await(ta);
            await(tb);
            print("main sees", requestId.get());

            await(createTask(() -> {
                requestId.set("parent");
                Task<Void> g = createTask(() -> print("grandchild sees", requestId.get()));
                requestId.set("parent-later");
                await(g);
                print("parent sees", requestId.get());
            }));

            requestId.set("for-callback");
            loop.callSoon(() -> show("callback"));
            requestId.set("after-scheduling");
            sleep(0.01);

            requestId.set("explicit");
            Context ctx = Context.copyCurrent();
            requestId.set("other");
            loop.callSoon(() -> show("explicit callback"), ctx);
            sleep(0.01);

            await(createTask(() -> {
                print("task with explicit context sees", requestId.get());
                return null;
            }, null, ctx));

            loop.callSoon(() -> show("empty context"), Context.empty());
            sleep(0.01);
            return null;
        });
    }
}
