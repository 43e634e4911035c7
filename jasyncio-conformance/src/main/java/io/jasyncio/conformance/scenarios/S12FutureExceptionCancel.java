package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.InvalidStateException;

/** Scenario 12: Future exceptions (same object back), cancellation with a message, invalid states. */
public final class S12FutureExceptionCancel extends Scenario {
    @Override
    public String name() {
        return "12_future_exception_cancel";
    }

    @Override
    protected void run() {
        EventLoop loop = newLoop();
        Future<Integer> p = loop.createFuture();
        try {
            p.result();
        } catch (InvalidStateException e) {
            print("result on pending:", errorName(e));
        }
        try {
            p.exception();
        } catch (InvalidStateException e) {
            print("exception on pending:", errorName(e));
        }
        print("done:", b(p.isDone()));

        Future<Integer> f1 = loop.createFuture();
        ValueError original = new ValueError("bad");
        f1.setException(original);
        print("exception():", err(f1.exception()));
        try {
            f1.result();
        } catch (ValueError e) {
            print("result raised same object:", b(e == original));
        }
        try {
            f1.setResult(1);
        } catch (InvalidStateException e) {
            print("set_result after done:", errorName(e));
        }
        try {
            f1.setException(new RuntimeError("again"));
        } catch (InvalidStateException e) {
            print("set_exception after done:", errorName(e));
        }

        Future<Integer> f2 = loop.createFuture();
        f2.addDoneCallback(f -> print("callback sees cancelled:", b(f.isCancelled())));
        print("cancel:", b(f2.cancel("stop it")));
        print("cancelled:", b(f2.isCancelled()));
        print("done:", b(f2.isDone()));
        print("cancel again:", b(f2.cancel()));
        try {
            f2.result();
        } catch (CancelledError e) {
            print("result raised:", err(e));
        }
        try {
            f2.exception();
        } catch (CancelledError e) {
            print("exception raised:", err(e));
        }
        try {
            f2.setResult(1);
        } catch (InvalidStateException e) {
            print("set_result after cancel:", errorName(e));
        }

        Future<Integer> f3 = loop.createFuture();
        f3.setResult(7);
        print("cancel done:", b(f3.cancel()));
        print("result:", f3.result());

        loop.callSoon(loop::stop);
        loop.runForever();
        loop.close();
    }
}
