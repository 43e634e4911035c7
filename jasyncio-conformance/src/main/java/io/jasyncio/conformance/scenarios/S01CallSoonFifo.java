package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Handle;

/** Scenario 01: call_soon runs callbacks in FIFO order; stop() lets the current drain finish. */
public final class S01CallSoonFifo extends Scenario {
    @Override
    public String name() {
        return "01_call_soon_fifo";
    }

    @Override
    protected void run() {
        EventLoop loop = newLoop();
        loop.callSoon(() -> say("a"));
        loop.callSoon(() -> say("b", 1, 2));
        Handle c = loop.callSoon(() -> say("c"));
        loop.callSoon(() -> say("d"));
        c.cancel();
        print("c cancelled:", b(c.isCancelled()));
        loop.callSoon(loop::stop);
        loop.callSoon(() -> say("e"));
        print("run_forever starts");
        loop.runForever();
        print("run_forever returned");
        loop.callSoon(() -> say("f"));
        loop.callSoon(loop::stop);
        loop.runForever();
        print("second run_forever returned");
        loop.close();
        print("closed:", b(loop.isClosed()));
    }

    private void say(Object... parts) {
        Object[] line = new Object[parts.length + 1];
        line[0] = "callback";
        System.arraycopy(parts, 0, line, 1, parts.length);
        print(line);
    }
}
