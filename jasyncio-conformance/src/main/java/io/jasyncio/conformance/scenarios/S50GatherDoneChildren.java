package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;

/**
 * Scenario 50: gather over children that are already done (asyncio 3.12+): they are accounted for
 * when gather is called, in argument order, so a gather of done children is returned done and
 * awaiting it does not yield. The expected trace is what CPython 3.12.1 and 3.13.0 print (the same
 * for both; 3.11 differs from the first line on). The Python program is next to the trace.
 */
public final class S50GatherDoneChildren extends Scenario {
    @Override
    public String name() {
        return "50_gather_done_children";
    }

    private static String show(Object v) {
        return v instanceof Throwable t ? err(t) : String.valueOf(v);
    }

    private static String joined(List<?> values) {
        List<String> shown = new ArrayList<>();
        for (Object v : values) {
            shown.add(show(v));
        }
        return String.join(", ", shown);
    }

    private static <T> Future<T> done(EventLoop loop, T value) {
        Future<T> f = loop.createFuture();
        f.setResult(value);
        return f;
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            EventLoop loop = getRunningLoop();
            Future<String> one = done(loop, "one");
            Future<String> two = done(loop, "two");
            boolean[] ran = {false};
            Task<Void> other = createTask(() -> {
                ran[0] = true;
                print("other ran");
            });
            Future<List<String>> g = gather(one, two);
            print("all done: gather done at once:", b(g.isDone()));
            print("results:", String.join(", ", await(g)));
            print("other ran before:", b(ran[0]));
            sleep(0);

            Future<String> failed = loop.createFuture();
            failed.setException(new ValueError("early"));
            Future<String> pending = loop.createFuture();
            Future<List<String>> g2 = gather(failed, pending);
            print("failed first: done at once:", b(g2.isDone()));
            print("failed first:", show(g2.exception()));
            print("failed first: pending child cancelled:", b(pending.isCancelled()));
            pending.setResult("late");
            sleep(0);

            print("with return_exceptions:", joined(gather(true, one, failed).result()));
            print("duplicate:", joined(gather(one, one).result()));

            Future<String> cancelled = loop.createFuture();
            cancelled.cancel("stop");
            Future<List<String>> g5 = gather(cancelled);
            print("cancelled child: done at once:", b(g5.isDone()));
            print("cancelled child:", show(g5.exception()));

            Task<String> task = createTask(() -> "quick");
            await(task);
            print("finished task:", b(gather(task, one).isDone()));

            Future<String> pending2 = loop.createFuture();
            Future<List<String>> g7 = gather(one, pending2);
            pending2.setResult("later");
            print("mix right after set_result:", b(g7.isDone()));
            sleep(0);
            print("mix after a turn:", b(g7.isDone()));
            print("mix:", joined(g7.result()));
            await(other);
            print("main done");
            return null;
        });
    }
}
