package io.jasyncio.debug.management;

import io.jasyncio.Asyncio;
import io.jasyncio.debug.graph.TaskRow;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;

import javax.management.InstanceAlreadyExistsException;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The management beans: once the task-graph bean is registered (as {@code ./jasyncio ps} creates
 * it), every loop has an {@link EventLoopMXBean} from its creation to its close, read from another
 * thread as JConsole would, and the task graph lists its tasks.
 */
class LoopBeansTest {
    /** The platform server with the task-graph bean in it, as {@code ./jasyncio ps} leaves it. */
    private static MBeanServer beansOn() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            server.registerMBean(new TaskGraphBean(), new ObjectName(TaskGraphMXBean.NAME));
        } catch (InstanceAlreadyExistsException registeredAtTheFirstLoop) {
            // the JVM's platform server existed when its first loop was made (or another test ran): registered then
        }
        return server;
    }

    private static ObjectName beanOf(EventLoop loop) throws Exception {
        int id = EventLoops.liveLoops().stream().filter(l -> l.loop() == loop).findFirst().orElseThrow().id();
        return new ObjectName("io.jasyncio:type=EventLoop,id=" + id);
    }

    @Test
    void aLoopNobodyClosedIsStillCollectedAndItsBeanLeaves() throws Exception {
        MBeanServer server = beansOn();
        EventLoop loop = EventLoops.newEventLoop();
        ObjectName name = beanOf(loop);
        assertTrue(server.isRegistered(name));
        JMX.newMXBeanProxy(server, name, EventLoopMXBean.class).getTasksPending(); // a reading asked of it
        java.lang.ref.WeakReference<EventLoop> ref = new java.lang.ref.WeakReference<>(loop);
        loop = null;
        try (io.jasyncio.debug.LogCapture resources = new io.jasyncio.debug.LogCapture("io.jasyncio.resources")) {
            // the loop was never closed: once collected, asyncio's ResourceWarning says so
            io.jasyncio.testing.Collect.until(() -> ref.refersTo(null) && !resources.containing("unclosed event loop").isEmpty());
            assertTrue(ref.refersTo(null), "the bean does not keep its loop alive");
            assertEquals(1, resources.containing("unclosed event loop").size(), resources.messages().toString());
        }
        EventLoop next = EventLoops.newEventLoop(); // the next registration drops the stale bean
        try {
            assertFalse(server.isRegistered(name));
        } finally {
            next.close();
        }
    }

    @Test
    void aLoopsBeanLivesFromItsCreationToItsCloseAndReadsTheLoopFromItsThread() throws Exception {
        MBeanServer server = beansOn();
        EventLoop loop = EventLoops.newEventLoop();
        int id = EventLoops.liveLoops().stream().filter(l -> l.loop() == loop).findFirst().orElseThrow().id();
        ObjectName name = beanOf(loop);
        assertTrue(server.isRegistered(name), "registered at creation");
        EventLoopMXBean bean = JMX.newMXBeanProxy(server, name, EventLoopMXBean.class);
        TaskGraphMXBean graph = JMX.newMXBeanProxy(server, new ObjectName(TaskGraphMXBean.NAME), TaskGraphMXBean.class);

        Future<Void> release = loop.createFuture();
        Future<Void> stop = loop.createFuture();
        Thread runner = Thread.ofPlatform().name("beans-test-loop").start(() -> Asyncio.runUntilComplete(loop, () -> {
            for (int i = 0; i < 3; i++) {
                Asyncio.createTask(() -> Asyncio.await(release), "waiter-" + i);
            }
            Asyncio.await(stop);
        }));
        try {
            int pending = 0;
            for (int i = 0; i < 500 && pending != 4; i++) { // the main task and its three waiters, once created
                pending = bean.getTasksPending();
                Thread.sleep(pending == 4 ? 0 : 10);
            }
            assertEquals(4, pending);
            assertEquals(4, bean.getTasksCreated());
            assertEquals("beans-test-loop", bean.getThread());
            assertTrue(bean.isRunning());
            assertTrue(bean.getCountingSinceMillis() > 0, "counting began at the first reading");

            List<TaskRow> rows = graph.tasks(10_000).stream().filter(r -> r.loop() == id).toList();
            assertEquals(List.of("waiter-0", "waiter-1", "waiter-2"),
                    rows.stream().map(TaskRow::name).filter(n -> n.startsWith("waiter-")).toList());
            assertTrue(rows.stream().filter(r -> r.name().startsWith("waiter-"))
                    .allMatch(r -> r.state().equals("waiting") && r.waitingOn().equals("Future")), rows.toString());
            assertTrue(graph.getUnansweredLoops().isEmpty());

            loop.callSoonThreadsafe(() -> release.setResult(null));
            long done = 0;
            for (int i = 0; i < 500 && done != 3; i++) { // readings are fresh for 100 ms
                done = bean.getTasksDone();
                Thread.sleep(done == 3 ? 0 : 20);
            }
            assertEquals(3, done);
            assertEquals(1, bean.getTasksPending());
            assertTrue(bean.getIterations() > 0, "iterations counted since the first reading");
        } finally {
            loop.callSoonThreadsafe(() -> stop.setResult(null));
            runner.join();
        }
        Thread.sleep(110); // past the last reading's freshness: the next one asks a loop that no longer runs
        long unanswered = bean.getUnansweredReadings();
        assertEquals(1, bean.getTasksPending(), "a loop that does not answer keeps its last reading");
        assertEquals(unanswered + 1, bean.getUnansweredReadings());
        loop.close();
        assertFalse(server.isRegistered(name), "unregistered at close");
    }
}
