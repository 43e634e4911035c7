package io.jasyncio.debug;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.jasyncio.Asyncio;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import io.jasyncio.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jasyncio.Asyncio.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the portable engine starts body threads, read from a JDK thread dump of a child JVM: by
 * default each suspended task's body runs in an executor of its own (the JDK's root set would
 * otherwise keep an abandoned task alive); with {@code -Djdk.trackAllThreads=false}, which makes
 * the JDK only count plain virtual threads, each body is a plain virtual thread. Either way a
 * pending task nobody references is collected.
 */
@Timeout(120)
class BodyThreadContainersTest {

    @Test
    void byDefaultEachSuspendedBodyHasAnExecutorOfItsOwn() throws Exception {
        String out = probe();
        assertTrue(executors(out) >= 1, out); // the kept task's, at least (the abandoned ones may be collected already)
        assertTrue(out.contains("pending=1 kept=1"), out);
    }

    @Test
    void whenTheJdkOnlyCountsVirtualThreadsBodiesArePlainVirtualThreads() throws Exception {
        String out = probe("-Djdk.trackAllThreads=false");
        assertEquals(0, executors(out), out);
        assertTrue(out.contains("pending=1 kept=1"), out);
    }

    private static String probe(String... flags) throws Exception {
        String[] args = new String[flags.length + 2];
        System.arraycopy(flags, 0, args, 0, flags.length);
        args[flags.length] = "-Djasyncio.engine=threads";
        args[flags.length + 1] = Probe.class.getName();
        try (ChildJvm child = new ChildJvm("nio", args)) {
            return child.awaitLine("RESULT", 90);
        }
    }

    private static int executors(String out) {
        Matcher m = Pattern.compile("executors=(\\d+)").matcher(out);
        assertTrue(m.find(), out);
        return Integer.parseInt(m.group(1));
    }

    /** Finishes 50 tasks, suspends a kept one and 100 abandoned ones, dumps threads, collects, finishes the kept one. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            try (EventLoop loop = EventLoops.newEventLoop()) {
                for (int i = 0; i < 50; i++) {
                    Tasks.create(loop, () -> {
                        Asyncio.sleep(0);
                        return 0;
                    }, null, null);
                }
                settle(loop);
                Future<Integer> kept = loop.createFuture();
                Task<Integer> keptTask = Tasks.create(loop, () -> await(kept), "kept", null);
                for (int i = 0; i < 100; i++) {
                    Tasks.create(loop, () -> await(loop.createFuture()), "abandoned-" + i, null); // waits forever
                }
                settle(loop);
                Path dump = Files.createTempFile("threads", ".json");
                Files.delete(dump); // dumpThreads will not overwrite
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                String json = Files.readString(dump);
                Files.delete(dump);
                int executors = json.split("ThreadPerTaskExecutor", -1).length - 1;
                for (int i = 0; i < 200 && Task.allTasks(loop).size() > 1; i++) {
                    System.gc();
                    Thread.sleep(10);
                }
                int pending = Task.allTasks(loop).size();
                kept.setResult(1);
                System.out.println("RESULT executors=" + executors + " pending=" + pending + " kept=" + loop.runUntilComplete(keptTask));
            }
        }

        /** Runs until every step queued now has run: a task queued last steps twice, after all of them. */
        private static void settle(EventLoop loop) {
            loop.runUntilComplete(Tasks.create(loop, () -> {
                Asyncio.sleep(0);
                return 0;
            }, null, null));
        }
    }
}
