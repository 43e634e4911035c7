package io.jasyncio.lab;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code ./jasyncio lab}: the tour of the loop's claims, measured live. */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "Every claim about the loop, measured on a live loop.")
final class LabCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        EventLoop loop = EventLoops.newEventLoop();
        int[] iteration = {0};
        loop.setObserver(new LoopObserver() {
            @Override
            public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                iteration[0]++;
                String timeout = timeoutNanos < 0 ? "none (block)" : String.format("%.3f ms", timeoutNanos / 1e6);
                System.out.printf("iteration %d: %d ready, %d timers -> select timeout %s%n",
                        iteration[0], readyCount, timerCount, timeout);
            }

            @Override
            public void beforeDrain(int timersMoved, int ntodo) {
                System.out.printf("  %d due timers moved; snapshot ntodo=%d%n", timersMoved, ntodo);
            }

            @Override
            public void handleFinished(Handle handle, long nanos) {
                System.out.printf("  ran %s%n", handle);
            }
        });
        loop.callSoon(() -> loop.callSoon(() -> System.out.println("  (added during the drain: runs next iteration)")));
        loop.callLater(0.05, () -> System.out.println("  timer at +50 ms"));
        loop.callLater(0.10, loop::stop);
        loop.runForever();
        loop.close();
        return 0;
    }
}
