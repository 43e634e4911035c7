package io.jasyncio.debug.management;

import io.jasyncio.debug.graph.TaskRow;
import io.jasyncio.debug.graph.TaskSnapshot;
import io.jasyncio.loop.EventLoops;

import javax.management.MBeanRegistration;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link TaskGraphMXBean}. Public with a public constructor so a tool can create it in a
 * running JVM that never registered it ({@code MBeanServerConnection.createMBean}, what
 * {@code ./jasyncio ps} does after the attach API started the JVM's local JMX agent); registering
 * it registers every loop's {@link EventLoopMXBean} too, and from then on each new loop's.
 */
public final class TaskGraphBean implements TaskGraphMXBean, MBeanRegistration {
    private volatile List<String> unanswered = List.of();
    private MBeanServer server;

    /** A bean not yet registered: registering it (by the program or over JMX) starts its work. */
    public TaskGraphBean() {
    }

    @Override
    public List<TaskRow> tasks(long timeoutMillis) {
        List<EventLoops.LiveLoop> loops = new ArrayList<>();
        List<CompletableFuture<TaskSnapshot.Taken>> answers = new ArrayList<>();
        for (EventLoops.LiveLoop live : EventLoops.liveLoops()) {
            if (live.loop().isRunning()) {
                try {
                    answers.add(TaskSnapshot.take(live.loop(), live.id()));
                    loops.add(live);
                } catch (IllegalStateException closed) {
                    // closed meanwhile
                }
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<TaskRow> rows = new ArrayList<>();
        List<String> late = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            try {
                rows.addAll(answers.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).rows());
            } catch (TimeoutException | ExecutionException e) {
                Thread t = loops.get(i).loop().thread();
                late.add(loops.get(i).id() + " " + (t != null ? t.getName() : ""));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        unanswered = List.copyOf(late);
        return rows;
    }

    @Override
    public List<String> getUnansweredLoops() {
        return unanswered;
    }

    @Override
    public List<Integer> getLoops() {
        return EventLoops.liveLoops().stream().map(EventLoops.LiveLoop::id).toList();
    }

    @Override
    public ObjectName preRegister(MBeanServer server, ObjectName name) {
        this.server = server;
        return name;
    }

    @Override
    public void postRegister(Boolean done) {
        if (Boolean.TRUE.equals(done)) {
            LoopBeans.watch(server);
        }
    }

    @Override
    public void preDeregister() {
    }

    @Override
    public void postDeregister() {
    }
}
