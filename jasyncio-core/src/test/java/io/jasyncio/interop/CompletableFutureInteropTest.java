package io.jasyncio.interop;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.net.NetTesting;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.runCoroutineThreadsafe;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.wrapFuture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CompletableFuture and the loop, every direction: into the loop, out of it, cancellation both ways. */
@Timeout(30)
@EveryLoop
@EveryEngine
class CompletableFutureInteropTest {

    /** A loop running forever on its own thread; close() stops it from outside and closes it. */
    static final class LoopThread implements AutoCloseable {
        final EventLoop loop;
        final Thread thread;

        LoopThread(String name) throws InterruptedException {
            loop = EventLoops.newEventLoop(name);
            CountDownLatch started = new CountDownLatch(1);
            thread = Thread.ofPlatform().name("loop-" + name).start(() -> {
                loop.callSoon(started::countDown);
                loop.runForever();
            });
            assertTrue(started.await(10, TimeUnit.SECONDS));
        }

        @Override
        public void close() throws InterruptedException {
            loop.callSoonThreadsafe(loop::stop);
            assertTrue(thread.join(Duration.ofSeconds(10)), "the loop did not stop");
            loop.close();
        }
    }

    // ---- runCoroutineThreadsafe: a thread hands the loop a coroutine -------------------------

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void runCoroutineThreadsafeCompletesWithTheResultOrTheVeryException(String loopName) throws Exception {
        try (LoopThread lt = new LoopThread(loopName)) {
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            CompletableFuture<String> ok = runCoroutineThreadsafe(() -> {
                ranOn.set(NetTesting.turnOf(lt.loop));
                sleep(0.01);
                return "done";
            }, lt.loop);
            assertEquals("done", ok.get(10, TimeUnit.SECONDS));
            assertSame(lt.thread, ranOn.get());

            IllegalArgumentException boom = new IllegalArgumentException("boom");
            CompletableFuture<Object> failed = runCoroutineThreadsafe(() -> {
                sleep(0.01);
                throw boom;
            }, lt.loop);
            ExecutionException e = assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
            assertSame(boom, e.getCause());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void cancellingTheJavaFutureCancelsTheTaskAtItsAwait(String loopName) throws Exception {
        try (LoopThread lt = new LoopThread(loopName)) {
            CountDownLatch sleeping = new CountDownLatch(1);
            CompletableFuture<Boolean> cleanedUp = new CompletableFuture<>();
            CompletableFuture<Void> f = runCoroutineThreadsafe(() -> {
                try {
                    sleeping.countDown();
                    sleep(30);
                } catch (CancelledError e) {
                    cleanedUp.complete(NetTesting.turnOf(lt.loop) == lt.thread);
                    throw e;
                }
            }, lt.loop);
            assertTrue(sleeping.await(10, TimeUnit.SECONDS));
            assertTrue(f.cancel(true));
            assertTrue(cleanedUp.get(10, TimeUnit.SECONDS), "the cancellation landed on the loop thread");
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aTaskCancelledOnTheLoopCancelsTheJavaFuture(String loopName) throws Exception {
        try (LoopThread lt = new LoopThread(loopName)) {
            CompletableFuture<Void> f = runCoroutineThreadsafe(() -> {
                currentTask().cancel("given up"); // cancelled on the loop side; it lands at the next await
                sleep(10);
            }, lt.loop);
            assertThrows(CancellationException.class, () -> f.get(10, TimeUnit.SECONDS));
            assertTrue(f.isCancelled());
            assertEquals("given up", f.handle((value, error) -> error.getMessage()).get(), "the cancel message travels");
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aFutureCancelledBeforeTheLoopGetsToItNeverRunsTheBody(String loopName) throws Exception {
        try (LoopThread lt = new LoopThread(loopName)) {
            CountDownLatch hold = new CountDownLatch(1);
            lt.loop.callSoonThreadsafe(() -> awaitQuietly(hold)); // keep the loop busy meanwhile
            AtomicBoolean ran = new AtomicBoolean();
            CompletableFuture<Void> f = runCoroutineThreadsafe(() -> ran.set(true), lt.loop);
            f.cancel(false);
            hold.countDown();
            assertEquals("ok", runCoroutineThreadsafe(() -> "ok", lt.loop).get(10, TimeUnit.SECONDS));
            assertFalse(ran.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void manyThreadsSubmitAtOnceAndEveryBodyRunsOnTheLoopThread(String loopName) throws Exception {
        int threads = 8;
        int each = 250;
        try (LoopThread lt = new LoopThread(loopName);
             ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            Set<Thread> ranOn = ConcurrentHashMap.newKeySet();
            CountDownLatch go = new CountDownLatch(1);
            List<java.util.concurrent.Future<List<CompletableFuture<Integer>>>> submitted = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * each;
                submitted.add(pool.submit(() -> {
                    go.await();
                    List<CompletableFuture<Integer>> mine = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        int n = base + i;
                        mine.add(runCoroutineThreadsafe(() -> {
                            ranOn.add(NetTesting.turnOf(lt.loop));
                            if (n % 2 == 0) {
                                sleep(0);
                            }
                            return n;
                        }, lt.loop));
                    }
                    return mine;
                }));
            }
            go.countDown();
            long sum = 0;
            for (var s : submitted) {
                for (CompletableFuture<Integer> f : s.get(20, TimeUnit.SECONDS)) {
                    sum += f.get(20, TimeUnit.SECONDS);
                }
            }
            long n = (long) threads * each;
            assertEquals(n * (n - 1) / 2, sum);
            assertEquals(Set.of(lt.thread), ranOn);
        }
    }

    // ---- await(CompletionStage), wrapFuture: a task waits on Java's futures -------------------

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aTaskAwaitsACompletableFutureAndResumesOnTheLoopThread(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            Thread loopThread = Thread.currentThread();
            CompletableFuture<String> cf = new CompletableFuture<>();
            CompletableFuture.runAsync(() -> cf.complete("from elsewhere"), later(20));
            assertEquals("from elsewhere", await(cf));
            assertSame(loopThread, Thread.currentThread());

            IllegalStateException boom = new IllegalStateException("boom");
            CompletableFuture<String> failing = CompletableFuture.supplyAsync(() -> "x")
                    .thenApply(x -> { throw boom; });
            IllegalStateException seen = assertThrows(IllegalStateException.class, () -> await(failing));
            assertSame(boom, seen, "the stage's own exception, unwrapped from CompletionException");

            CompletableFuture<String> done = CompletableFuture.completedFuture("already");
            assertEquals("already", await(done));

            CompletableFuture<String> cancelledElsewhere = new CompletableFuture<>();
            CompletableFuture.runAsync(() -> cancelledElsewhere.cancel(false), later(20));
            assertThrows(CancelledError.class, () -> await(cancelledElsewhere));
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void cancellingTheAwaitingTaskCancelsTheCompletableFuture(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            CompletableFuture<String> never = new CompletableFuture<>();
            var waiter = createTask(() -> await(never));
            sleep(0.01);
            waiter.cancel();
            assertThrows(CancelledError.class, () -> await(waiter));
            assertTrue(never.isCancelled());
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void wrapFutureFollowsAPlainJavaFutureAndCancelsIt(String loopName) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            NetTesting.run(loopName, 20, () -> {
                java.util.concurrent.Future<Integer> answer = pool.submit(() -> {
                    Thread.sleep(20);
                    return 42;
                });
                assertEquals(42, await(wrapFuture(answer)));

                CountDownLatch release = new CountDownLatch(1);
                FutureTask<Integer> blocked = new FutureTask<>(() -> {
                    release.await();
                    return 0;
                });
                pool.execute(blocked);
                Future<Integer> mirror = wrapFuture(blocked);
                var waiter = createTask(() -> await(mirror));
                sleep(0.01);
                waiter.cancel();
                assertThrows(CancelledError.class, () -> await(waiter));
                assertTrue(blocked.isCancelled(), "the awaiting task's cancellation reached the Java future");
                release.countDown();

                java.util.concurrent.Future<Integer> failing = pool.submit(() -> {
                    throw new java.io.IOException("disk");
                });
                Exception e = assertThrows(java.io.IOException.class, () -> await(wrapFuture(failing)));
                assertEquals("disk", e.getMessage());
                return null;
            });
        }
    }

    /** 400 futures completed by 8 threads at the same moment: every await resumes on the loop thread. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void completionsFromManyThreadsAtOnceAllLandOnTheLoopThread(String loopName) throws Exception {
        int threads = 8;
        int count = 400;
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            futures.add(new CompletableFuture<>());
        }
        CountDownLatch go = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                int first = t;
                pool.execute(() -> {
                    awaitQuietly(go);
                    for (int i = first; i < count; i += threads) {
                        futures.get(i).complete(i);
                    }
                });
            }
            NetTesting.run(loopName, 20, () -> {
                Thread loopThread = NetTesting.turnOf(io.jasyncio.Asyncio.getRunningLoop());
                Set<Thread> resumedOn = ConcurrentHashMap.newKeySet();
                List<Future<Integer>> waiters = new ArrayList<>();
                for (CompletableFuture<Integer> cf : futures) {
                    waiters.add(createTask(() -> {
                        int v = await(cf);
                        resumedOn.add(NetTesting.turnOf(io.jasyncio.Asyncio.getRunningLoop()));
                        return v;
                    }));
                }
                sleep(0); // every waiter is suspended on its future now
                go.countDown();
                List<Integer> values = await(gather(waiters));
                for (int i = 0; i < count; i++) {
                    assertEquals(i, values.get(i));
                }
                assertEquals(Set.of(loopThread), resumedOn);
                return null;
            });
        }
    }

    // ---- Future.toCompletableFuture: a loop result handed to Java code -----------------------

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void toCompletableFutureCarriesTheOutcomeOutAndTheCancellationIn(String loopName) throws Exception {
        try (LoopThread lt = new LoopThread(loopName)) {
            CompletableFuture<Future<String>> made = new CompletableFuture<>();
            CompletableFuture<CompletableFuture<String>> view = new CompletableFuture<>();
            lt.loop.callSoonThreadsafe(() -> {
                Future<String> f = lt.loop.createFuture();
                made.complete(f);
                view.complete(f.toCompletableFuture());
                lt.loop.callLater(0.02, () -> f.setResult("ready"));
            });
            assertEquals("ready", view.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS));

            CompletableFuture<Future<String>> made2 = new CompletableFuture<>();
            CompletableFuture<CompletableFuture<String>> view2 = new CompletableFuture<>();
            CompletableFuture<Boolean> cancelledOnLoop = new CompletableFuture<>();
            lt.loop.callSoonThreadsafe(() -> {
                Future<String> f = lt.loop.createFuture();
                f.addDoneCallback(done -> cancelledOnLoop.complete(
                        done.isCancelled() && Thread.currentThread() == lt.thread));
                made2.complete(f);
                view2.complete(f.toCompletableFuture());
            });
            assertTrue(view2.get(10, TimeUnit.SECONDS).cancel(false));
            assertTrue(cancelledOnLoop.get(10, TimeUnit.SECONDS));
            assertTrue(made2.get().isCancelled());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void runCoroutineThreadsafeOnAClosedLoopFailsAtOnce(String loopName) {
        EventLoop loop = EventLoops.newEventLoop(loopName);
        loop.close();
        assertThrows(IllegalStateException.class, () -> runCoroutineThreadsafe(() -> 1, loop));
    }

    /** Runs what it is given on a common-pool thread, {@code millis} from now. */
    private static java.util.concurrent.Executor later(long millis) {
        return CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
