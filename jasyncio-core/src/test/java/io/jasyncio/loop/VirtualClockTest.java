package io.jasyncio.loop;

import io.jasyncio.net.Server;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.task.TimeoutException;
import io.jasyncio.task.VirtualTime;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.shutdownDefaultExecutor;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.Asyncio.toThread;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The virtual clock: it jumps to the next timer only when the loop is idle, keeps (deadline,
 * scheduling order), lets I/O already in the kernel win, and keeps real time for blocking work.
 * The 30 s limit is real time; the waits inside are virtual (an hour, a day).
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class VirtualClockTest {

    @Test
    void anIdleLoopJumpsFromTimerToTimerInDeadlineThenSchedulingOrder() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.setClock(new VirtualClock());
            List<String> ran = new ArrayList<>();
            for (String name : List.of("c@3600", "a@1", "b@1", "d@86400", "e@0.5")) {
                double at = Double.parseDouble(name.substring(2));
                loop.callLater(at, () -> ran.add(name + "=" + loop.time()));
            }
            loop.callLater(86400, loop::stop);
            loop.runForever();
            assertEquals(List.of("e@0.5=0.5", "a@1=1.0", "b@1=1.0", "c@3600=3600.0", "d@86400=86400.0"), ran);
            assertEquals(86400.0, loop.time());
        }
    }

    /**
     * A loop that does not run its due timers (it keeps coming back idle at the instant one is due)
     * gets an exception from the clock within about a second, not a spin for ever.
     */
    @Test
    void aLoopThatDoesNotRunItsDueTimerFailsInsteadOfSpinning() {
        VirtualClock clock = new VirtualClock();
        clock.advance(Duration.ofSeconds(5));
        long now = clock.nanoTime();
        IllegalStateException stalled = assertThrows(IllegalStateException.class, () -> {
            for (long turn = 0; turn < 1_000_000_000L; turn++) {
                assertEquals(now, clock.idle(now, 0), "a timer due now: no jump");
            }
        });
        assertTrue(stalled.getMessage().contains("does not run its due timers"), stalled.getMessage());
    }

    @Test
    void aChainOfZeroDelayTimersRunsAtOneInstant() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.setClock(new VirtualClock());
            int[] links = {0};
            Runnable[] link = new Runnable[1];
            link[0] = () -> {
                if (++links[0] < 1000) {
                    loop.callLater(0, link[0]);
                } else {
                    loop.stop();
                }
            };
            loop.callLater(0, link[0]);
            loop.runForever();
            assertEquals(1000, links[0]);
            assertEquals(0.0, loop.time());
        }
    }

    @Test
    void readyCallbacksRunBeforeTheClockMoves() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.setClock(new VirtualClock());
            List<String> ran = new ArrayList<>();
            loop.callLater(10, () -> ran.add("timer at " + loop.time()));
            int[] hops = {0};
            Runnable[] chain = new Runnable[1];
            chain[0] = () -> {
                ran.add("hop " + hops[0] + " at " + loop.time());
                if (++hops[0] < 3) {
                    loop.callSoon(chain[0]);
                }
            };
            loop.callSoon(chain[0]);
            loop.callLater(10, loop::stop);
            loop.runForever();
            assertEquals(List.of("hop 0 at 0.0", "hop 1 at 0.0", "hop 2 at 0.0", "timer at 10.0"), ran);
        }
    }

    @Test
    void advanceMovesTheClockAndDueTimersRunInTheNextIteration() {
        VirtualTime.run(() -> {
            EventLoop loop = getRunningLoop();
            VirtualClock clock = (VirtualClock) loop.clock();
            List<String> ran = new ArrayList<>();
            loop.callLater(5, () -> ran.add("5 s timer"));
            clock.advance(Duration.ofSeconds(7));
            assertEquals(7.0, loop.time());
            assertEquals(List.of(), ran, "advance moves time; the timer runs when the loop next iterates");
            sleep(0);
            sleep(0);
            assertEquals(List.of("5 s timer"), ran);
            assertThrows(IllegalArgumentException.class, () -> clock.advance(Duration.ofSeconds(-1)));
        });
    }

    @Test
    void waitForTimesOutAtItsVirtualDeadline() {
        VirtualTime.run(() -> {
            EventLoop loop = getRunningLoop();
            Future<String> never = loop.createFuture();
            assertThrows(TimeoutException.class, () -> waitFor(never, 3600.0));
            assertEquals(3600.0, loop.time());
            assertTrue(never.isCancelled());
        });
    }

    @Test
    void loopbackIoOnTheSameLoopWinsOverAPendingTimer() throws Exception {
        VirtualTime.run(() -> {
            EventLoop loop = getRunningLoop();
            Server server = startServer((reader, writer) -> {
                byte[] line = reader.readline();
                sleep(30); // a slow server: 30 virtual seconds
                writer.write(line);
                writer.close();
            }, "127.0.0.1", 0);
            int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();
            String reply = waitFor(() -> {
                StreamConnection c = openConnection("127.0.0.1", port);
                c.writer().write("ping\n".getBytes(StandardCharsets.UTF_8));
                String got = new String(c.reader().readline(), StandardCharsets.UTF_8);
                c.writer().close();
                return got;
            }, 3600.0);
            assertEquals("ping\n", reply);
            assertEquals(30.0, loop.time(), "only the server's sleep moved the clock; the I/O took no virtual time");
            server.close();
            server.waitClosed();
        });
    }

    @Test
    void blockingWorkKeepsRealTimeSoATimeoutAroundItIsNotSkipped() {
        VirtualTime.run(() -> {
            EventLoop loop = getRunningLoop();
            loop.callLater(3600, () -> { }); // a far timer the clock must not jump to while the work runs
            String result = waitFor(() -> await(loop.runInExecutor(null, () -> {
                Thread.sleep(100);
                return "done";
            })), 60.0);
            assertEquals("done", result);
            double elapsed = loop.time();
            assertTrue(elapsed > 0 && elapsed < 3600, "the clock ran at real speed during the work, no jump: " + elapsed);
        });
    }

    @Test
    void stuckBlockingWorkStillTimesOutAfterTheRealDelay() {
        CountDownLatch release = new CountDownLatch(1);
        try {
            VirtualTime.run(() -> {
                EventLoop loop = getRunningLoop();
                TimeoutException e = assertThrows(TimeoutException.class, () -> waitFor(() -> toThread(() -> {
                    release.await();
                    return null;
                }), 0.2));
                assertInstanceOf(TimeoutException.class, e);
                assertTrue(loop.time() >= 0.2, "timed out at " + loop.time());
                release.countDown();
            });
        } finally {
            release.countDown();
        }
    }

    @Test
    void shuttingTheDefaultExecutorDownWaitsForItsWorkInRealTime() {
        VirtualTime.run(() -> {
            EventLoop loop = getRunningLoop();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            loop.setDefaultExecutor(pool);
            pool.execute(() -> { // work the loop never heard of: only the join itself holds the clock
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            shutdownDefaultExecutor(3600);
            double joinedAt = loop.time();
            assertTrue(joinedAt > 0 && joinedAt < 3600, "the join's timeout was skipped: joined at " + joinedAt);
        });
    }

    @Test
    void aHoldKeepsRealTimeForAPeerOutsideTheLoop() throws Exception {
        VirtualTime.run(() -> {
            EventLoop loop = getRunningLoop();
            VirtualClock clock = (VirtualClock) loop.clock();
            Future<String> answer = loop.createFuture();
            Thread peer = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
                loop.callSoonThreadsafe(() -> answer.setResult("pong"));
            });
            try (VirtualClock.Hold held = clock.hold()) {
                assertEquals("pong", waitFor(answer, 10.0), "held, the 10 s timeout waits in real time");
            }
            peer.join();
            double answeredAt = loop.time();
            assertTrue(answeredAt > 0 && answeredAt < 10, "answered at " + answeredAt);
            sleep(3600);
            assertEquals(answeredAt + 3600, loop.time(), 1e-6, "released, the clock jumps again");
        });
    }

    @Test
    void withNoTimerAnIdleVirtualLoopBlocksUntilAnotherThreadCallsIn() throws Exception {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.setClock(new VirtualClock());
            List<Long> timeouts = new CopyOnWriteArrayList<>();
            CountDownLatch blocking = new CountDownLatch(1);
            loop.setObserver(new LoopObserver() {
                @Override
                public void beforeSelect(long timeoutNanos, int readyCount, int timerCount) {
                    timeouts.add(timeoutNanos);
                    if (timeoutNanos == -1) {
                        blocking.countDown();
                    }
                }
            });
            Thread caller = Thread.ofPlatform().start(() -> {
                try { // once it blocks (or, if it never does, after a while: the assertion below tells)
                    blocking.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                loop.callSoonThreadsafe(loop::stop);
            });
            loop.runForever();
            caller.join();
            assertTrue(timeouts.contains(-1L), "it blocked with no timeout: " + timeouts);
            assertEquals(0.0, loop.time());
        }
    }

    @Test
    void theClockIsSetBeforeTheFirstTimer() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            loop.callLater(1, () -> { });
            assertThrows(IllegalStateException.class, () -> loop.setClock(new VirtualClock()));
            assertEquals(LoopClock.monotonic(), loop.clock());
        }
    }
}
