package io.jasyncio.debug.management;

/**
 * {@code io.jasyncio:type=EventLoop,id=N}: one loop's readings, for JConsole, {@code jcmd}-started
 * JMX agents and JMX-to-metrics exporters. Each reading is taken on the loop's thread (at most
 * every 100 ms: readers in between get the last one); a loop that does not answer within 200 ms
 * keeps its last reading and counts it in {@link #getUnansweredReadings}.
 *
 * <p>The timing counters (iterations, lag, slow callbacks, select and callback time) come from a
 * {@code LoopStats} observer installed the first time the bean is read, so a loop nobody looks at
 * pays nothing; {@link #getCountingSinceMillis} says when counting began (0: not yet).
 */
public interface EventLoopMXBean {
    /** The loop's id, as in its ObjectName ({@code id=N}). */
    int getId();

    /** The loop's implementation: the name of the provider of its backend ("nio", "epoll", ...). */
    String getLoopClass();

    /** The name of the thread running the loop, or of the last one that ran it. */
    String getThread();

    /** Whether the loop is running now. */
    boolean isRunning();

    /** When the timing counters began (epoch milliseconds): the bean's first reading; 0 before it. */
    long getCountingSinceMillis();

    /** Loop iterations (select, then the ready callbacks) since counting began. */
    long getIterations();

    /** Callbacks run (each task step is one) since counting began. */
    long getCallbacksRun();

    /** Callbacks that held the loop at least its slow-callback duration, since counting began. */
    long getSlowCallbacks();

    /** Seconds spent waiting in the poller since counting began. */
    double getSelectSeconds();

    /** Seconds spent running callbacks since counting began. */
    double getCallbackSeconds();

    /** Callbacks in the ready queue at the reading. */
    int getReadyQueueDepth();

    /** The most callbacks one iteration ran (one snapshot of the ready queue) since counting began. */
    int getReadyQueueMax();

    /** Timers in the heap now, cancelled ones not yet purged included. */
    int getTimersInHeap();

    /** Cancelled timers still in the heap now (purged lazily). */
    int getCancelledTimersInHeap();

    /** The number of timers whose lateness was measured since counting began. */
    long getLagSamples();

    /** Median lateness of timers after their deadlines, in milliseconds (bucketed: within 12.5%). */
    double getLagP50Millis();

    /** 90th percentile of timer lateness, in milliseconds (bucketed: within 12.5%). */
    double getLagP90Millis();

    /** 99th percentile of timer lateness, in milliseconds (bucketed: within 12.5%): what a held loop shows first. */
    double getLagP99Millis();

    /** The latest any timer ran after its deadline since counting began, in milliseconds (exact). */
    double getLagMaxMillis();

    /** Tasks created on the loop since it was made. */
    long getTasksCreated();

    /** Tasks of the loop not done now. */
    int getTasksPending();

    /** Tasks of the loop done since it was made. */
    long getTasksDone();

    /** Readings the loop did not answer within 200 ms (held, or not running): each got the last reading instead. */
    long getUnansweredReadings();
}
