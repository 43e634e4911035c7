package io.jasyncio.task;

import io.jasyncio.context.ContextVar;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code Thread.currentThread()} and a {@code ThreadLocal} are inside tasks, on each engine
 * (this class runs on both: {@link EveryEngine}), and that a
 * {@link ContextVar} is the same on both. The exact difference is documented in README
 * ("Task engines") and docs/ARCHITECTURE.md:
 * <ul>
 *   <li>continuation: every task body runs on the loop's thread, which is the thread that called
 *       {@code Asyncio.run}: a {@code ThreadLocal} is shared by the caller, every task and every
 *       callback of the loop (as {@code threading.local} in asyncio);</li>
 *   <li>threads: each task body runs on a virtual thread of its own, kept for the task's whole
 *       life, and {@code Asyncio.run} drives the loop from a virtual thread named as the caller:
 *       a {@code ThreadLocal} is per task (and the loop's callbacks see the loop thread's own).</li>
 * </ul>
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class TaskThreadIdentityTest {
    private static final boolean CONTINUATION = TaskEngine.CHOSEN.name().equals("continuation");
    /** Whether Asyncio.run drives this loop from a virtual thread (the portable engine on the nio loop). */
    private static final boolean VIRTUAL_LOOP = VirtualLoopThread.wanted(EventLoops.defaultLoopName());
    private static final ThreadLocal<String> LOCAL = new ThreadLocal<>();
    private static final ContextVar<String> VAR = ContextVar.withDefault("var", "unset");

    @Test
    void currentThreadInsideTasksAndCallbacks() {
        Thread caller = Thread.currentThread();
        List<Thread> seen = new ArrayList<>(); // loop, callback, task A before and after a yield, task B
        run(() -> {
            EventLoop loop = getRunningLoop();
            seen.add(loop.thread());
            loop.callSoon(() -> seen.add(Thread.currentThread()));
            Task<Void> a = createTask(() -> {
                seen.add(Thread.currentThread());
                sleep(0);
                seen.add(Thread.currentThread());
            });
            Task<Thread> b = createTask(Thread::currentThread);
            await(a);
            seen.add(await(b));
        });
        Thread loop = seen.get(0);
        Thread callback = seen.get(1);
        Thread aBefore = seen.get(2);
        Thread aAfter = seen.get(3);
        Thread b = seen.get(4);
        assertSame(loop, callback, "a callback runs on the loop's thread");
        assertSame(aBefore, aAfter, "a task keeps its thread across a suspension");
        if (CONTINUATION) {
            assertSame(caller, loop, "the loop runs on the thread that called run");
            assertSame(loop, aBefore, "a task body runs on the loop's thread");
            assertSame(loop, b);
        } else {
            if (VIRTUAL_LOOP) {
                assertTrue(loop.isVirtual(), "run drives the loop from a virtual thread: " + loop);
                assertEquals(caller.getName(), loop.getName(), "named as the caller");
            } else {
                assertSame(caller, loop, "a native loop runs on the caller's thread");
            }
            assertTrue(aBefore.isVirtual(), "a task body runs on a virtual thread: " + aBefore);
            assertNotSame(loop, aBefore, "of its own, not the loop's");
            assertNotSame(aBefore, b, "each task has its own");
            assertEquals(loop.getName(), aBefore.getName(), "named as the loop's thread, which it acts for");
        }
    }

    @Test
    void threadLocalsAreSharedByTasksOnContinuationsAndPerTaskOnThreads() {
        LOCAL.set("caller");
        try {
            List<String> seen = run(() -> {
                List<String> s = new ArrayList<>();
                s.add(LOCAL.get());                       // 0: the main task, before anything
                Task<Void> a = createTask(() -> {
                    LOCAL.set("set by A");
                    sleep(0);                             // B and the callback run meanwhile
                    s.add(LOCAL.get());                   // 3: A after its suspension
                });
                Task<Void> b = createTask(() -> {
                    s.add(LOCAL.get());                   // 1: B, after A set its value
                });
                getRunningLoop().callSoon(() -> s.add(LOCAL.get())); // 2: a plain callback
                await(a);
                await(b);
                s.add(LOCAL.get());                       // 4: the main task again
                return s;
            });
            if (CONTINUATION) {
                assertEquals(List.of("caller", "set by A", "set by A", "set by A", "set by A"), seen,
                        "one thread: the caller's value, then A's, seen by everyone");
            } else {
                assertNull(seen.get(0), "the main task's thread is its own: the caller's value is not there");
                assertNull(seen.get(1), "B does not see A's value");
                assertEquals(VIRTUAL_LOOP ? null : "caller", seen.get(2),
                        "a callback sees the loop thread's own: a virtual one's (none), or the caller's");
                assertEquals("set by A", seen.get(3), "A keeps its own value across its suspension");
                assertNull(seen.get(4));
            }
            assertEquals(CONTINUATION ? "set by A" : "caller", LOCAL.get(), "after run, on the caller's thread");
        } finally {
            LOCAL.remove();
        }
    }

    @Test
    void contextVarsAreTheSameOnBothEngines() {
        VAR.set("caller");
        List<String> seen = run(() -> {
            List<String> s = new ArrayList<>();
            s.add(VAR.get());                             // 0: run copies the caller's context
            Task<Void> a = createTask(() -> {
                VAR.set("set by A");
                sleep(0);
                s.add(VAR.get());                         // 3: A after its suspension
            });
            Task<Void> b = createTask(() -> {
                s.add(VAR.get());                         // 1: B copied the main task's context, not A's
            });
            getRunningLoop().callSoon(() -> s.add(VAR.get())); // 2: a callback, in the context it was scheduled from
            await(a);
            await(b);
            s.add(VAR.get());                             // 4: the main task's own context
            return s;
        });
        assertEquals(List.of("caller", "caller", "caller", "set by A", "caller"), seen);
    }

    @Test
    void runReturnsAndThrowsWhatTheMainTaskDid() {
        assertEquals("result", run(() -> "result"));
        Exception thrown = new Exception("checked, from the main task");
        Coroutine<String> failing = () -> {
            sleep(0);
            throw thrown;
        };
        Exception caught = assertThrows(Exception.class, () -> run(failing));
        assertSame(thrown, caught, "the very object, from whatever thread drove the loop");
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
