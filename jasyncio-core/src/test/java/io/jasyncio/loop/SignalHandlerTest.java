package io.jasyncio.loop;

import io.jasyncio.context.ContextVar;
import io.jasyncio.net.NetTesting;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;


import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * loop.addSignalHandler with real signals sent to this JVM. Only SIGUSR1 is raised here, and
 * only while a handler of ours is installed and until it has run: the JVM's own handling of it
 * would end the test run. (SIGTERM and SIGINT are tested in child JVMs.)
 */
@Timeout(30)
@EveryLoop
@EveryEngine
class SignalHandlerTest {
    private static final ContextVar<String> WHO = ContextVar.of("who");

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theHandlerRunsOnTheLoopThreadInTheContextItWasAddedIn(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            Thread loopThread = NetTesting.turnOf(loop);
            Future<String> ran = loop.createFuture();
            WHO.set("the adder");
            loop.addSignalHandler(Signal.SIGUSR1, () -> {
                if (!ran.isDone()) {
                    ran.setResult(Thread.currentThread() == loopThread ? WHO.get() : "a foreign thread");
                }
            });
            WHO.set("changed later");
            try {
                assertSame(loop, SignalHandlers.owner(Signal.SIGUSR1));
                Signal.SIGUSR1.raise();
                assertEquals("the adder", await(ran));
            } finally {
                assertTrue(loop.removeSignalHandler(Signal.SIGUSR1));
            }
            assertFalse(loop.removeSignalHandler(Signal.SIGUSR1), "removed already");
            assertNull(SignalHandlers.owner(Signal.SIGUSR1));
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void oneLoopAtATimeAndClosingALoopGivesItsSignalsBack(String loopName) {
        EventLoop other = EventLoops.newEventLoop(loopName);
        try {
            other.addSignalHandler(Signal.SIGUSR1, () -> { });
            NetTesting.run(loopName, 20, () -> {
                EventLoop loop = getRunningLoop();
                IllegalStateException taken = assertThrows(IllegalStateException.class,
                        () -> loop.addSignalHandler(Signal.SIGUSR1, () -> { }));
                assertTrue(taken.getMessage().contains("another loop"), taken.getMessage());
                assertFalse(loop.removeSignalHandler(Signal.SIGUSR1), "not this loop's to remove");
                return null;
            });
        } finally {
            other.close();
        }
        assertNull(SignalHandlers.owner(Signal.SIGUSR1), "closing the loop removed its handler");
        assertThrows(IllegalStateException.class, () -> other.addSignalHandler(Signal.SIGUSR1, () -> { }));
    }
}
