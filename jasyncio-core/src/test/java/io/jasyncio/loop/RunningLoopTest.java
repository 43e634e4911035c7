package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A thread acting for a loop (a task engine's body thread) finds it as its running loop, whatever
 * the loop's class: {@code actAsLoopThread} and {@code getRunningLoop} know no implementation.
 */
@EveryLoop
class RunningLoopTest {

    @Test
    void aThreadActingForAnyEventLoopFindsItAsItsRunningLoop() throws Exception {
        EventLoop notOurs = LoopContractTest.loopWithoutTheContract();
        CompletableFuture<EventLoop> found = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                EventLoops.actAsLoopThread(notOurs);
                found.complete(EventLoops.getRunningLoop());
            } catch (Throwable t) {
                found.completeExceptionally(t);
            }
        });
        assertSame(notOurs, found.get(10, TimeUnit.SECONDS));
        assertNull(EventLoops.runningLoopOrNull(), "only that thread acts for it");
    }
}
