package io.jasyncio.sync;

import io.jasyncio.loop.Future;
import io.jasyncio.task.Tasks;

import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A FIFO queue between producer and consumer tasks, as asyncio's {@code Queue} (3.13, shutdown
 * included). With a positive {@code maxsize}, {@link #put} waits while the queue is full:
 * backpressure. {@link #get} waits while it is empty. Waiting putters and getters are served
 * first come first served; a cancelled waiter that had already been woken passes its turn on.
 *
 * <p>{@link #taskDone()} and {@link #join()} count unfinished items: each put adds one, each
 * taskDone removes one, and join waits for zero. Items may not be null (Java's collections
 * refuse them). Not thread-safe: use it on its loop's thread. {@link PriorityQueue} and
 * {@link LifoQueue} change only the order items come out in.
 */
public class Queue<T> {
    private final LoopBinding binding = new LoopBinding();
    private final int maxsize;
    private final java.util.Queue<T> items;
    private final ArrayDeque<Future<Void>> getters = new ArrayDeque<>();
    private final ArrayDeque<Future<Void>> putters = new ArrayDeque<>();
    private final Event finished = new Event();
    private int unfinishedTasks;
    private boolean shutdown;

    /** An unbounded FIFO queue. */
    public Queue() {
        this(0);
    }

    /** A FIFO queue holding at most {@code maxsize} items ({@code <= 0}: unbounded). */
    public Queue(int maxsize) {
        this(maxsize, new ArrayDeque<>());
    }

    /** A queue over {@code items}, whose own order decides which item comes out next. */
    protected Queue(int maxsize, java.util.Queue<T> items) {
        this.maxsize = maxsize;
        this.items = Objects.requireNonNull(items, "items");
        finished.set();
    }

    /** Items in the queue. */
    public int qsize() {
        return items.size();
    }

    /** The capacity; 0 or less means unbounded. */
    public int maxsize() {
        return maxsize;
    }

    /** Whether the queue holds no item. */
    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** Whether the queue holds {@code maxsize} items (never, when unbounded). */
    public boolean isFull() {
        return maxsize > 0 && items.size() >= maxsize;
    }

    /**
     * Adds {@code item}, waiting for a free slot while the queue is full.
     *
     * @throws QueueShutDownException if the queue is (or, while waiting, gets) shut down
     */
    public void put(T item) {
        while (isFull()) {
            if (shutdown) {
                throw new QueueShutDownException();
            }
            Future<Void> putter = binding.loop(this).createFuture();
            putters.add(putter);
            try {
                Tasks.await(putter);
            } catch (Throwable t) {
                putter.cancel(); // in case it is still pending
                putters.remove(putter); // a getter may have removed it already
                if (!isFull() && !putter.isCancelled()) {
                    wakeUpNext(putters); // we were given a free slot we will not use: pass it on
                }
                throw t;
            }
        }
        putNowait(item);
    }

    /**
     * Adds {@code item} if there is room.
     *
     * @throws QueueFullException if the queue is full
     * @throws QueueShutDownException if the queue was shut down
     */
    public void putNowait(T item) {
        binding.checkThread(this, "putNowait");
        Objects.requireNonNull(item, "item");
        if (shutdown) {
            throw new QueueShutDownException();
        }
        if (isFull()) {
            throw new QueueFullException();
        }
        items.add(item);
        unfinishedTasks++;
        finished.clear();
        wakeUpNext(getters);
    }

    /**
     * Removes and returns the next item, waiting while the queue is empty.
     *
     * @throws QueueShutDownException if the queue is shut down and empty (or shut down immediately)
     */
    public T get() {
        while (isEmpty()) {
            if (shutdown) {
                throw new QueueShutDownException();
            }
            Future<Void> getter = binding.loop(this).createFuture();
            getters.add(getter);
            try {
                Tasks.await(getter);
            } catch (Throwable t) {
                getter.cancel();
                getters.remove(getter);
                if (!isEmpty() && !getter.isCancelled()) {
                    wakeUpNext(getters); // we were woken for an item we will not take: pass it on
                }
                throw t;
            }
        }
        return getNowait();
    }

    /**
     * Removes and returns the next item if there is one.
     *
     * @throws QueueEmptyException if the queue is empty
     * @throws QueueShutDownException if the queue is empty and shut down
     */
    public T getNowait() {
        binding.checkThread(this, "getNowait");
        if (isEmpty()) {
            if (shutdown) {
                throw new QueueShutDownException();
            }
            throw new QueueEmptyException();
        }
        T item = items.remove();
        wakeUpNext(putters);
        return item;
    }

    /**
     * Marks one item taken with get as processed; {@link #join()} returns when every item put
     * has been marked.
     *
     * @throws IllegalStateException if called more often than items were put (asyncio's ValueError)
     */
    public void taskDone() {
        binding.checkThread(this, "taskDone");
        if (unfinishedTasks <= 0) {
            throw new IllegalStateException("taskDone() called too many times");
        }
        unfinishedTasks--;
        if (unfinishedTasks == 0) {
            finished.set();
        }
    }

    /** Waits until every item put has been marked with {@link #taskDone()}. No yield if none is pending. */
    public void join() {
        if (unfinishedTasks > 0) {
            finished.await();
        }
    }

    /** Items put and not yet marked done. */
    public int unfinishedTasks() {
        return unfinishedTasks;
    }

    /** {@link #shutdown(boolean) shutdown(false)}: gets drain what is left, then fail. */
    public void shutdown() {
        shutdown(false);
    }

    /**
     * Shuts the queue down: puts fail from now on with {@link QueueShutDownException}, and so do
     * gets once the queue is empty. With {@code immediate}, the remaining items are dropped (each
     * counted as done, which may release {@link #join()}), so gets fail at once. Every waiting
     * putter and getter is woken to see the new state.
     */
    public void shutdown(boolean immediate) {
        binding.checkThread(this, "shutdown");
        shutdown = true;
        if (immediate) {
            while (!items.isEmpty()) {
                items.remove();
                if (unfinishedTasks > 0) {
                    unfinishedTasks--;
                }
            }
            if (unfinishedTasks == 0) {
                finished.set();
            }
        }
        wakeAll(getters);
        wakeAll(putters);
    }

    /** Whether {@link #shutdown} was called. */
    public boolean isShutdown() {
        return shutdown;
    }

    /** Wakes the first waiter that is not done yet, dropping the done ones before it. */
    private static void wakeUpNext(ArrayDeque<Future<Void>> waiters) {
        Future<Void> w;
        while ((w = waiters.poll()) != null) {
            if (!w.isDone()) {
                w.setResult(null);
                return;
            }
        }
    }

    private static void wakeAll(ArrayDeque<Future<Void>> waiters) {
        Future<Void> w;
        while ((w = waiters.poll()) != null) {
            if (!w.isDone()) {
                w.setResult(null);
            }
        }
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("<").append(getClass().getSimpleName()).append(" maxsize=").append(maxsize);
        if (!items.isEmpty()) {
            s.append(" _queue=").append(items);
        }
        if (!getters.isEmpty()) {
            s.append(" _getters[").append(getters.size()).append(']');
        }
        if (!putters.isEmpty()) {
            s.append(" _putters[").append(putters.size()).append(']');
        }
        if (unfinishedTasks > 0) {
            s.append(" tasks=").append(unfinishedTasks);
        }
        if (shutdown) {
            s.append(" shutdown");
        }
        return s.append('>').toString();
    }
}
