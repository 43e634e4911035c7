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
    int getId();

    /** The loop's implementation: the name of the provider of its backend ("nio", "epoll", ...). */
    String getLoopClass();

    String getThread();

    boolean isRunning();

    long getCountingSinceMillis();

    long getIterations();

    long getCallbacksRun();

    long getSlowCallbacks();

    double getSelectSeconds();

    double getCallbackSeconds();

    int getReadyQueueDepth();

    int getReadyQueueMax();

    int getTimersInHeap();

    int getCancelledTimersInHeap();

    long getLagSamples();

    double getLagP50Millis();

    double getLagP90Millis();

    double getLagP99Millis();

    double getLagMaxMillis();

    long getTasksCreated();

    int getTasksPending();

    long getTasksDone();

    long getUnansweredReadings();
}
