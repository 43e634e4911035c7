import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The portable task engine's hand-off, alone: a platform thread (the loop) and a virtual thread
 * (a task body) pass the turn back and forth, three ways; then the first way again with the loop
 * itself on a virtual thread (what Asyncio.run does on the portable engine), where a hand-off wakes
 * no OS thread. Prints ns per round trip (loop -> body -> loop) for 3 interleaved rounds after 2
 * warm-up rounds. Run: java bench/micro/HandOff.java
 */
public class HandOff {
    static final int N = 20_000;
    static volatile boolean bodyTurn;
    static Thread loopThread;
    static Thread bodyThread;

    /** A volatile turn plus LockSupport.park/unpark (what ThreadBody does), optionally spinning first. */
    static long parkUnpark(int spins) throws InterruptedException {
        loopThread = Thread.currentThread();
        bodyTurn = false;
        bodyThread = Thread.ofVirtual().start(() -> {
            for (int i = 0; i < N; i++) {
                awaitTurn(true, spins);
                bodyTurn = false;
                LockSupport.unpark(loopThread);
            }
        });
        long t0 = System.nanoTime();
        for (int i = 0; i < N; i++) {
            bodyTurn = true;
            LockSupport.unpark(bodyThread);
            awaitTurn(false, spins);
        }
        long ns = (System.nanoTime() - t0) / N;
        bodyThread.join();
        return ns;
    }

    static void awaitTurn(boolean body, int spins) {
        for (int s = 0; s < spins && bodyTurn != body; s++) {
            Thread.onSpinWait();
        }
        while (bodyTurn != body) {
            LockSupport.park();
        }
    }

    /** Two SynchronousQueues, one per direction. */
    static long synchronousQueues() throws InterruptedException {
        SynchronousQueue<Boolean> toBody = new SynchronousQueue<>();
        SynchronousQueue<Boolean> toLoop = new SynchronousQueue<>();
        Thread body = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < N; i++) {
                    toBody.take();
                    toLoop.put(Boolean.TRUE);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long t0 = System.nanoTime();
        for (int i = 0; i < N; i++) {
            toBody.put(Boolean.TRUE);
            toLoop.take();
        }
        long ns = (System.nanoTime() - t0) / N;
        body.join();
        return ns;
    }

    /** {@link #parkUnpark} with the loop's side on a virtual thread too. */
    static long parkUnparkFromVirtualLoop() throws InterruptedException {
        long[] ns = new long[1];
        Thread loop = Thread.ofVirtual().start(() -> {
            try {
                ns[0] = parkUnpark(0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        loop.join();
        return ns[0];
    }

    public static void main(String[] args) throws InterruptedException {
        for (int w = 0; w < 2; w++) {
            parkUnpark(0);
            parkUnpark(200);
            synchronousQueues();
            parkUnparkFromVirtualLoop();
        }
        for (int r = 1; r <= 3; r++) {
            System.out.printf("RESULT round=%d park_unpark_ns=%d park_unpark_spin200_ns=%d synchronous_queue_ns=%d "
                    + "virtual_loop_park_unpark_ns=%d%n",
                    r, parkUnpark(0), parkUnpark(200), synchronousQueues(), parkUnparkFromVirtualLoop());
        }
    }
}
