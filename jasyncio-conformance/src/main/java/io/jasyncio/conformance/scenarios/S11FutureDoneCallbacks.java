package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.util.function.Consumer;

/** Scenario 11: done-callbacks are scheduled with callSoon, never run inline; remove counts duplicates. */
public final class S11FutureDoneCallbacks extends Scenario {
    @Override
    public String name() {
        return "11_future_done_callbacks";
    }

    @Override
    protected void run() {
        EventLoop loop = newLoop();
        Future<Integer> fut = loop.createFuture();
        Consumer<Future<Integer>> first = make("first");
        Consumer<Future<Integer>> second = make("second");
        Consumer<Future<Integer>> third = make("third");
        fut.addDoneCallback(first);
        fut.addDoneCallback(second);
        fut.addDoneCallback(third);
        fut.addDoneCallback(second);
        print("removed:", fut.removeDoneCallback(second));

        loop.callSoon(() -> {
            print("setting result");
            fut.setResult(42);
            print("set_result returned, done:", b(fut.isDone()));
        });
        loop.callSoon(() -> print("bystander (queued before the callbacks)"));
        loop.callLater(0.01, () -> {
            fut.addDoneCallback(make("late"));
            print("added late callback");
            loop.callSoon(loop::stop);
        });
        loop.runForever();
        loop.close();
    }

    private Consumer<Future<Integer>> make(String name) {
        return f -> print(name, "sees result", f.result());
    }
}
