package io.jasyncio.bench;

import io.jasyncio.loop.Handle;
import io.jasyncio.loop.LoopObserver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each benchmark method runs once, outside JMH: they work, and they measure what they claim. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BenchmarksSmokeTest {

    @Test
    void callSoonDrainRunsEveryCallback() {
        CallSoonDrainBenchmark b = new CallSoonDrainBenchmark();
        b.openLoop();
        try {
            int[] ran = {0};
            b.loop.setObserver(new LoopObserver() {
                @Override
                public void handleFinished(Handle handle, long nanos) {
                    ran[0]++;
                }
            });
            b.callSoonDrain();
            assertEquals(CallSoonDrainBenchmark.CALLBACKS + 1, ran[0], "every callback ran, then the stop");
            assertEquals(0, b.loop.readyCount());
        } finally {
            b.closeLoop();
        }
    }

    @Test
    void timerScheduleCancelLeavesAnEmptyHeap() {
        TimerScheduleCancelBenchmark b = new TimerScheduleCancelBenchmark();
        b.openLoop();
        b.prepareDelays();
        try {
            b.scheduleCancel();   // throws if cancelled handles stayed in the heap
            assertEquals(0, b.loop.scheduledTimerCount());
        } finally {
            b.closeLoop();
        }
    }

    @Test
    void taskRoundTripFinishesEveryTask() {
        TaskRoundTripBenchmark b = new TaskRoundTripBenchmark();
        b.openLoop();
        try {
            assertEquals(TaskRoundTripBenchmark.TASKS, b.roundTrip());
        } finally {
            b.closeLoop();
        }
    }

    @Test
    void awaitDoneFutureReturnsItsResult() {
        AwaitDoneFutureBenchmark b = new AwaitDoneFutureBenchmark();
        b.makeDoneFuture();
        try {
            assertEquals("ready", b.awaitDone());
        } finally {
            b.closeLoop();
        }
    }

    @Test
    void queuePutGetPassesEveryItem() {
        QueuePutGetBenchmark b = new QueuePutGetBenchmark();
        b.openRunner();
        try {
            assertEquals(QueuePutGetBenchmark.ITEMS, b.putGet());
        } finally {
            b.closeRunner();
        }
    }

    @Test
    void readlineReadsEveryLine() throws Exception {
        ReadlineBenchmark b = new ReadlineBenchmark();
        b.prepare();
        try {
            assertEquals(ReadlineBenchmark.LINES, b.readline());
        } finally {
            b.closeRunner();
        }
    }

    @Test
    void doneCallbackDispatchRunsEveryCallback() {
        DoneCallbackDispatchBenchmark b = new DoneCallbackDispatchBenchmark();
        b.openLoop();
        try {
            assertEquals(DoneCallbackDispatchBenchmark.FUTURES, b.dispatch());
        } finally {
            b.closeLoop();
        }
    }

    @Test
    void nettyExecuteDrains() throws InterruptedException {
        NettyExecuteBenchmark b = new NettyExecuteBenchmark();
        b.openLoop();
        try {
            b.executeDrain();
        } finally {
            b.closeLoop();
        }
    }

    @Test
    void nettyScheduleCancelRuns() throws InterruptedException {
        NettyScheduleCancelBenchmark b = new NettyScheduleCancelBenchmark();
        b.openLoop();
        try {
            b.scheduleCancel();
        } finally {
            b.closeLoop();
        }
    }

    @Test
    void suspendedTasksCostSomeHeap() {
        long bytes = io.jasyncio.Asyncio.run(() -> SuspendedTaskMemory.measureSleeping(20_000));
        // A suspended task holds at least its Task, a Future and a TimerHandle: well over 64 bytes.
        assertTrue(bytes / 20_000 > 64, "bytes per task: " + bytes / 20_000);
    }

    @Test
    void aTaskHoldsMoreThanTheBareContinuationUnderIt() {
        long task = io.jasyncio.Asyncio.run(() -> SuspendedTaskMemory.measureAwaiting(20_000)) / 20_000;
        long floor = SuspendedTaskMemory.measureBareContinuations(20_000) / 20_000;
        // A bare suspended continuation holds its frames (a stack chunk) and itself; a task adds at least a Task.
        assertTrue(floor > 48, "bytes per bare continuation: " + floor);
        assertTrue(task > floor, "bytes per task " + task + ", per bare continuation " + floor);
    }

    @Test
    void continuationFloorFinishesEveryContinuation() {
        ContinuationFloorBenchmark b = new ContinuationFloorBenchmark();
        long expected = (long) ContinuationFloorBenchmark.TASKS * (ContinuationFloorBenchmark.TASKS - 1) / 2;
        assertEquals(expected, b.roundTrip());
        assertEquals(expected, b.roundTrip(), "the queue is empty again after an op");
    }
}
