package io.jasyncio.debug.management;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.List;
import java.util.WeakHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Puts jasyncio's beans in the JVM's platform MBean server: {@link TaskGraphMXBean} once, and an
 * {@link EventLoopMXBean} per live loop, registered as the loop is created and unregistered when
 * it closes. When that happens:
 * <ul>
 *   <li>a tool asks: {@code ./jasyncio ps|pstree|top} create the task-graph bean over JMX, which
 *       starts the rest (no flag in the program);</li>
 *   <li>at the first loop, when the platform MBean server already exists (a JMX agent or exporter,
 *       a framework) or with {@code -Djasyncio.jmx=true} (then the server is made, on a thread of
 *       its own: it takes a quarter of a second or more of CPU).</li>
 * </ul>
 * Otherwise nothing of JMX is loaded. Registered as an {@link EventLoops.CreationListener} service
 * for the second case, which {@code EventLoops} loads only then.
 */
public final class LoopBeans implements EventLoops.CreationListener {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.debug");
    /** The registered beans, by loop (weakly: a loop is never kept alive by its bean). */
    private static final Map<EventLoop, ObjectName> REGISTERED = Collections.synchronizedMap(new WeakHashMap<>());
    private static final Map<ObjectName, EventLoopBean> BEANS = new ConcurrentHashMap<>();
    private static volatile MBeanServer server;
    private static boolean starting;

    /** Used by {@link java.util.ServiceLoader}. */
    public LoopBeans() {
    }

    @Override
    public void loopCreated(EventLoop loop) {
        start();
    }

    /** Registers the task-graph bean in the platform server (making the server only if asked to). */
    private static void start() {
        synchronized (LoopBeans.class) {
            if (starting) {
                return;
            }
            starting = true;
        }
        if (!MBeanServerFactory.findMBeanServer(null).isEmpty()) {
            registerTaskGraph();
        } else if (Boolean.getBoolean("jasyncio.jmx")) {
            Thread.ofPlatform().daemon().name("jasyncio-jmx").start(LoopBeans::registerTaskGraph);
        }
    }

    private static void registerTaskGraph() {
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new TaskGraphBean(), new ObjectName(TaskGraphMXBean.NAME));
        } catch (InstanceAlreadyExistsException registeredByATool) {
            // a tool created it first: it watches already
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "jasyncio: cannot register the management beans", e);
        }
    }

    /** From the task-graph bean's registration: a bean for every live loop, and for each loop made from now on. */
    static void watch(MBeanServer into) {
        synchronized (LoopBeans.class) {
            if (server != null) {
                return;
            }
            server = into;
        }
        List<EventLoops.LiveLoop> live = EventLoops.addCreationListener(new EventLoops.CreationListener() {
            @Override
            public void loopCreated(EventLoop loop) {
                for (EventLoops.LiveLoop l : EventLoops.liveLoops()) {
                    if (l.loop() == loop) {
                        register(l);
                    }
                }
            }

            @Override
            public void loopClosed(EventLoop loop) {
                unregister(loop);
            }
        });
        live.forEach(LoopBeans::register);
    }

    private static void register(EventLoops.LiveLoop live) {
        dropCollected();
        try {
            ObjectName name = new ObjectName("io.jasyncio:type=EventLoop,id=" + live.id());
            if (REGISTERED.putIfAbsent(live.loop(), name) == null) {
                EventLoopBean bean = new EventLoopBean(live.id(), live.loop());
                BEANS.put(name, bean);
                server.registerMBean(bean, name);
            }
        } catch (InstanceAlreadyExistsException twice) {
            // told twice (a loop made while the watch began)
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "jasyncio: cannot register loop " + live.id() + "'s bean", e);
        }
    }

    private static void unregister(EventLoop loop) {
        ObjectName name = REGISTERED.remove(loop);
        if (name != null) {
            unregister(name);
        }
    }

    /** The beans of loops collected without being closed leave as the next bean comes. */
    private static void dropCollected() {
        for (Map.Entry<ObjectName, EventLoopBean> e : BEANS.entrySet()) {
            if (e.getValue().loopCollected()) {
                unregister(e.getKey());
            }
        }
    }

    private static void unregister(ObjectName name) {
        BEANS.remove(name);
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException gone) {
            // unregistered by someone else
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "jasyncio: cannot unregister " + name, e);
        }
    }
}
