package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.ExceptionHandler;
import io.jasyncio.loop.Future;

import java.util.Arrays;
import java.util.Map;

/** Scenario 40: failing callbacks go to the exception handler and the loop keeps running, even if the handler fails. */
public final class S40ExceptionHandler extends Scenario {
    @Override
    public String name() {
        return "40_exception_handler";
    }

    @Override
    protected boolean onVirtualClock() {
        return true; // the 10 ms timer must not be due before the done-callback's iteration
    }

    @Override
    protected void run() {
        EventLoop loop = newLoop();
        loop.setExceptionHandler((lp, context) -> {
            Object exc = context.get("exception");
            String message = String.valueOf(context.get("message"));
            if (exc instanceof Throwable t) {
                String words = String.join(" ", Arrays.asList(message.split(" ")).subList(0, 3));
                print("handler: " + words + " | " + errorName(t) + ": " + t.getMessage());
            } else {
                print("handler:", message);
            }
        });

        loop.callSoon(() -> bad("soon"));
        loop.callSoon(() -> after("after-1"));
        Future<Void> f = loop.createFuture();
        f.addDoneCallback(fut -> {
            throw new RuntimeError("done-callback failed");
        });
        loop.callSoon(() -> f.setResult(null));
        loop.callLater(0.01, () -> bad("timer"));
        loop.callLater(0.02, () -> after("after-2"));
        loop.callLater(0.03, loop::stop);
        loop.runForever();

        loop.callExceptionHandler(Map.of("message", "custom problem"));

        ExceptionHandler raising = (lp, context) -> {
            print("raising handler called");
            throw new RuntimeError("handler broke");
        };
        loop.setExceptionHandler(raising);
        loop.callSoon(() -> bad("again"));
        loop.callSoon(() -> after("after-3"));
        loop.callSoon(loop::stop);
        withLoopLogSilenced(loop::runForever);

        loop.setExceptionHandler(null);
        print("handler reset:", b(loop.getExceptionHandler() == null));
        loop.close();
    }

    private static void bad(String tag) {
        throw new ValueError(tag + " failed");
    }

    private void after(String tag) {
        print(tag, "still runs");
    }

    /** As the reference silences logging: the handler's own failure is logged, not printed. */
    private static void withLoopLogSilenced(Runnable body) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("io.jasyncio.loop");
        java.util.logging.Level previous = logger.getLevel();
        logger.setLevel(java.util.logging.Level.OFF);
        try {
            body.run();
        } finally {
            logger.setLevel(previous);
        }
    }
}
