package io.jasyncio.lab;

import com.sun.tools.attach.VirtualMachine;
import io.jasyncio.debug.graph.TaskRow;
import io.jasyncio.debug.management.TaskGraphBean;
import io.jasyncio.debug.management.TaskGraphMXBean;

import javax.management.InstanceAlreadyExistsException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A running JVM reached from outside, with no flag of its own: the attach API starts its local
 * JMX agent (the JDK's, loopback only, same user), and jasyncio's task-graph bean is created in it
 * over that connection if it is not registered yet (it is in the target's class path with
 * jasyncio). What {@code ps} and {@code pstree} read.
 */
final class AttachedJvm implements AutoCloseable {
    /** Why a process could not be read: the message is for the user, as it stands. */
    static final class Unreachable extends Exception {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** How long after its start a JVM that refuses the attach is taken to be still starting. */
    static final Duration STARTUP_PATIENCE = Duration.ofSeconds(30);

    private final JMXConnector jmx;
    private final TaskGraphMXBean taskGraph;

    private AttachedJvm(JMXConnector jmx, TaskGraphMXBean taskGraph) {
        this.jmx = jmx;
        this.taskGraph = taskGraph;
    }

    static AttachedJvm attach(long pid) throws Unreachable {
        String address = managementAgent(pid);
        JMXConnector jmx = null;
        try {
            jmx = JMXConnectorFactory.connect(new JMXServiceURL(address));
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName name = new ObjectName(TaskGraphMXBean.NAME);
            if (!server.isRegistered(name)) {
                try {
                    server.createMBean(TaskGraphBean.class.getName(), name);
                } catch (InstanceAlreadyExistsException meanwhile) {
                    // registered by the program, or another tool, since we looked
                } catch (ReflectionException notThere) {
                    throw new Unreachable("process " + pid + " does not use jasyncio (no " + TaskGraphBean.class.getName()
                            + " on its class path)", notThere);
                }
            }
            return new AttachedJvm(jmx, JMX.newMXBeanProxy(server, name, TaskGraphMXBean.class));
        } catch (Unreachable e) {
            closeQuietly(jmx);
            throw e;
        } catch (Exception e) {
            closeQuietly(jmx);
            throw new Unreachable("cannot read process " + pid + " over JMX: " + e, e);
        }
    }

    /**
     * The address of process {@code pid}'s local JMX agent, started over the attach API. A JVM
     * still starting up does not answer the attach yet: one started less than
     * {@link #STARTUP_PATIENCE} ago is asked again until it does.
     */
    static String managementAgent(long pid) throws Unreachable {
        while (true) {
            try {
                VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
                try {
                    return vm.startLocalManagementAgent();
                } finally {
                    vm.detach();
                }
            } catch (Exception e) {
                if (!startingUp(pid)) {
                    throw new Unreachable("cannot attach to process " + pid + ": " + e.getMessage(), e);
                }
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Unreachable("interrupted while attaching to process " + pid, e);
            }
        }
    }

    private static boolean startingUp(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .flatMap(p -> p.info().startInstant())
                .map(start -> start.plus(STARTUP_PATIENCE).isAfter(Instant.now()))
                .orElse(false);
    }

    /** Every pending task of the process's running loops; a loop held longer than {@code timeoutMillis} is left out. */
    List<TaskRow> tasks(long timeoutMillis) {
        return taskGraph.tasks(timeoutMillis);
    }

    /** The loops the last {@link #tasks} call had no answer from ("id thread"). */
    List<String> unansweredLoops() {
        return taskGraph.getUnansweredLoops();
    }

    @Override
    public void close() {
        closeQuietly(jmx);
    }

    private static void closeQuietly(JMXConnector c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException gone) {
                // the target ended first
            }
        }
    }
}
