package io.jasyncio.loop;

import java.util.List;

/**
 * The one test contract for every loop (Netty's testsuite pattern): the loop, task, sync and net
 * suites run against each loop implementation, chosen per test JVM.
 *
 * <ul>
 *   <li>Tests that make their loop the default way ({@code Asyncio.run}, {@code new Runner()},
 *       {@link EventLoops#newEventLoop()}) get the JVM's loop: {@code -Djasyncio.loop=NAME}.</li>
 *   <li>Tests parameterized by loop name take {@code @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")}.</li>
 * </ul>
 * jasyncio-core runs the suites on {@code nio}; each native loop module runs the compiled classes
 * marked {@link io.jasyncio.testing.EveryLoop} again (its surefire scans this module's test jar)
 * with {@code -Djasyncio.loop} naming its loop. The task engine is the other axis
 * ({@link io.jasyncio.testing.EveryEngine}: one more surefire execution per module with
 * {@code -Djasyncio.engine=threads}), and composes.
 */
public final class LoopsUnderTest {
    /** Comma-separated loop names to run the parameterized suites on in this JVM (overrides the rest). */
    public static final String LOOPS_PROPERTY = "jasyncio.test.loops";
    /** The JVM's default loop ({@link EventLoops#newEventLoop()}). */
    public static final String LOOP_PROPERTY = "jasyncio.loop";

    private LoopsUnderTest() {
    }

    /**
     * The loops to test on in this JVM: those named by {@code -Djasyncio.test.loops=a,b}; else the
     * one named by {@code -Djasyncio.loop}; else every loop available here (in jasyncio-core, only
     * {@code nio}; in a module with the epoll loop on its class path, both).
     */
    public static List<String> names() {
        String chosen = System.getProperty(LOOPS_PROPERTY, "");
        if (chosen.isBlank()) {
            chosen = System.getProperty(LOOP_PROPERTY, "");
        }
        if (chosen.isBlank()) {
            return EventLoops.availableNames();
        }
        List<String> names = List.of(chosen.split(","));
        for (String name : names) {
            if (!EventLoops.availableNames().contains(name)) {
                throw new IllegalStateException("the tests are asked to run on the '" + name + "' loop, which cannot run here; "
                        + "available: " + EventLoops.availableNames());
            }
        }
        return names;
    }
}
