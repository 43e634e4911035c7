package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Task;
import io.jasyncio.task.Timeout;
import io.jasyncio.task.TimeoutException;

import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.timeout;
import static io.jasyncio.Asyncio.timeoutAt;

/** Scenario 23: timeout / timeoutAt: expiry becomes TimeoutError, reschedule() moves the deadline. */
public final class S23TimeoutContext extends Scenario {
    @Override
    public String name() {
        return "23_timeout_context";
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            EventLoop loop = getRunningLoop();
            Task<?> me = currentTask();

            Timeout cm1 = timeout(0.05);
            try {
                cm1.run(() -> {
                    print("body 1 waiting");
                    sleep(10);
                });
            } catch (TimeoutException e) {
                print("1:", err(e));
            }
            print("1 expired:", b(cm1.expired()));
            print("1 task cancelling after:", me.cancelling());

            double start = loop.time();
            try {
                timeout(5).run(cm -> {
                    cm.reschedule(loop.time() + 0.02);
                    sleep(10);
                    return null;
                });
            } catch (TimeoutException e) {
                print("2 rescheduled earlier:", err(e));
            }
            print("2 fired early enough:", b(loop.time() - start < 2.5));

            try {
                Timeout.never().run(cm -> {
                    print("3 when is none:", b(cm.when() == null));
                    cm.reschedule(loop.time() + 0.02);
                    sleep(10);
                    return null;
                });
            } catch (TimeoutException e) {
                print("3 deadline added later:", err(e));
            }

            Timeout cm4 = timeout(0.02);
            cm4.run(() -> {
                cm4.reschedule(loop.time() + 1.0);
                sleep(0.05);
                print("4 body completed after extension");
            });
            print("4 expired:", b(cm4.expired()));

            Timeout cm5 = timeout(0.02);
            cm5.run(() -> {
                cm5.reschedule(null);
                sleep(0.05);
                print("5 body completed with no deadline");
            });
            print("5 expired:", b(cm5.expired()));

            try {
                timeoutAt(loop.time() - 1, () -> {
                    print("6 body runs until first await");
                    sleep(0);
                    print("NOT REACHED");
                });
            } catch (TimeoutException e) {
                print("6 past deadline:", err(e));
            }

            try {
                cm1.reschedule(loop.time() + 1);
            } catch (IllegalStateException e) {
                print("7 reschedule after exit: RuntimeError");
            }

            Timeout cm8 = timeout(2);
            cm8.run(() -> sleep(0.01));
            print("8 fine, expired:", b(cm8.expired()));
            return null;
        });
    }
}
