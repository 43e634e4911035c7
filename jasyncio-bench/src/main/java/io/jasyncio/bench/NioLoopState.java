package io.jasyncio.bench;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The state the single-loop benchmarks share: one nio loop per trial, opened before and closed
 * after it. Subclasses are the benchmarks themselves (JMH runs inherited setup and teardown). JMH
 * does not promise to run this class's setup before a subclass's own, so a subclass's setup
 * must not use {@code loop} (AwaitDoneFutureBenchmark, whose setup does, keeps its own).
 */
@State(Scope.Thread)
public abstract class NioLoopState {
    EventLoop loop;

    @Setup(Level.Trial)
    public void openLoop() {
        loop = EventLoops.newEventLoop("nio");
    }

    @TearDown(Level.Trial)
    public void closeLoop() {
        loop.close();
    }

    /** Runs everything already queued on {@code l}, then returns: stop goes in line behind it. */
    static void runQueued(EventLoop l) {
        l.callSoon(l::stop);
        l.runForever();
    }
}
