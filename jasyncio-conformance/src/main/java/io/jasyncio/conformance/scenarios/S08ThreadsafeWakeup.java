package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

/** Scenario 08: callSoonThreadsafe from another thread wakes a loop blocked in select. */
public final class S08ThreadsafeWakeup extends Scenario {
    @Override
    public String name() {
        return "08_threadsafe_wakeup";
    }

    @Override
    protected void run() throws InterruptedException {
        EventLoop loop = newLoop();
        Thread loopThread = Thread.currentThread();
        Thread helper = Thread.ofPlatform().start(() -> {
            pause(200);
            loop.callSoonThreadsafe(() -> report("one", loopThread));
            loop.callSoonThreadsafe(() -> report("two", loopThread));
            loop.callSoonThreadsafe(loop::stop);
        });
        double start = loop.time();
        loop.runForever();
        print("run_forever returned");
        print("waited for the thread:", b(loop.time() - start >= 0.15));
        helper.join();

        Future<Integer> fut = loop.createFuture();
        Thread resolver = Thread.ofPlatform().start(() -> {
            pause(50);
            loop.callSoonThreadsafe(() -> fut.setResult(42));
        });
        print("future result:", loop.runUntilComplete(fut));
        resolver.join();
        loop.close();
    }

    private void report(String word, Thread loopThread) {
        print("from thread:", word);
        print("on loop thread:", b(Thread.currentThread() == loopThread));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
