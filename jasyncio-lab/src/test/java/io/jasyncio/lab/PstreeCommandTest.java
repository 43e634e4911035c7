package io.jasyncio.lab;

import io.jasyncio.debug.management.EventLoopMXBean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pstree} and {@code ps} against a child JVM running {@code examples/album/Album.java}, which
 * is started with no flag of ours, on each task engine: the tree asyncio 3.14's documentation shows
 * for the same program (its names, its shape; Java's frames), the cycle report, and the loop's bean.
 */
class PstreeCommandTest {
    /** asyncio's documented tree for its album example, with this program's frames (line numbers as N). */
    static final String ALBUM_TREE = """
            └── (T) Task-1
                └──  Album.main Album.java:N
                    └──  Asyncio.taskGroup Asyncio.java:N
                        ├── (T) Sundowning
                        │   └──  Album.album Album.java:N
                        │       └──  Asyncio.taskGroup Asyncio.java:N
                        │           ├── (T) TNDNBTG
                        │           │   └──  Album.play Album.java:N
                        │           │       └──  Asyncio.sleep Asyncio.java:N
                        │           └── (T) Levitate
                        │               └──  Album.play Album.java:N
                        │                   └──  Asyncio.sleep Asyncio.java:N
                        └── (T) TMBTE
                            └──  Album.album Album.java:N
                                └──  Asyncio.taskGroup Asyncio.java:N
                                    ├── (T) DYWTYLM
                                    │   └──  Album.play Album.java:N
                                    │       └──  Asyncio.sleep Asyncio.java:N
                                    └── (T) Aqua Regia
                                        └──  Album.play Album.java:N
                                            └──  Asyncio.sleep Asyncio.java:N
            """;

    @TempDir
    static Path classes;

    @BeforeAll
    static void compileTheExample() {
        ExampleJvm.compile(classes, "album/Album.java");
    }

    /** The example on {@code engine}; returns once it has printed its PID. */
    private static Process start(String engine, String... args) throws Exception {
        Process p = ExampleJvm.java(classes, engine, List.of(), "Album", args).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertTrue(line != null && line.startsWith("PID: "), "the example starts: " + line);
        return p;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(Object command, long pid) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        Object c = command.equals("ps") ? new PsCommand(o, e) : new PstreeCommand(o, e);
        int code = new CommandLine(c).execute(Long.toString(pid));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** pstree, again until all seven tasks have started (the example may still be starting them); at most 30 tries. */
    private static Run treeOfAllTasks(long pid) throws InterruptedException {
        Run r = null;
        for (int i = 0; i < 30; i++) {
            r = run("pstree", pid);
            if (r.code() != 0 || r.out().contains("Aqua Regia\n") && r.out().split("\\(T\\)").length == 8
                    && r.out().lines().filter(l -> l.contains("Asyncio.sleep")).count() == 4) {
                return r;
            }
            Thread.sleep(100);
        }
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"continuation", "threads"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void pstreeShowsTheAlbumAsAsyncioDocumentsIt(String engine) throws Exception {
        Process album = start(engine);
        try {
            Run tree = treeOfAllTasks(album.pid());
            assertEquals(0, tree.code(), tree.err());
            assertEquals(ALBUM_TREE, tree.out().replaceAll("\\.java:\\d+", ".java:N"), tree.out());

            Run ps = run("ps", album.pid());
            assertEquals(0, ps.code(), ps.err());
            List<String> lines = ps.out().lines().toList();
            assertEquals(2 + 7, lines.size(), ps.out());
            assertTrue(lines.getFirst().matches("tid +task id +task name +state +coroutine stack +awaiter chain"
                    + " +awaiter name +awaiter id"), lines.getFirst());
            assertTrue(lines.stream().anyMatch(l -> l.matches("\\d+ +0x\\p{XDigit}+ +Levitate +waiting +Asyncio.sleep -> Album.play"
                    + " +Asyncio.taskGroup -> Album.album +Sundowning +0x\\p{XDigit}+")), ps.out());
            assertTrue(lines.stream().anyMatch(l -> l.matches("\\d+ +0x\\p{XDigit}+ +Task-1 +waiting"
                    + " +Asyncio.taskGroup -> Album.main +0x0")), ps.out());

            assertTheLoopsBean(album.pid());
        } finally {
            album.destroyForcibly().waitFor();
        }
    }

    /** After ps the loop's bean is there too: its task counts, and counting that starts at the first read. */
    private static void assertTheLoopsBean(long pid) throws Exception {
        try (JMXConnector jmx = JMXConnectorFactory.connect(new JMXServiceURL(agentAddress(pid)))) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            Set<ObjectName> loops = server.queryNames(new ObjectName("io.jasyncio:type=EventLoop,*"), null);
            assertEquals(1, loops.size(), loops.toString());
            EventLoopMXBean loop = JMX.newMXBeanProxy(server, loops.iterator().next(), EventLoopMXBean.class);
            int pending = 0;
            for (int i = 0; i < 100 && pending != 7; i++) { // a reading the loop did not answer in time is the last one
                pending = loop.getTasksPending();
            }
            assertEquals(7, pending);
            assertEquals(7, loop.getTasksCreated());
            assertEquals(0, loop.getTasksDone());
            assertEquals("main", loop.getThread());
            assertTrue(loop.getCountingSinceMillis() > 0, "the first read started counting");
            assertEquals(4, loop.getTimersInHeap(), "the four tracks' sleeps");
        }
    }

    private static String agentAddress(long pid) throws Exception {
        com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid));
        try {
            return vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void tasksAwaitingEachOtherAreReportedAsACycle() throws Exception {
        Process cycle = start("continuation", "--cycle");
        try {
            Run tree = null;
            for (int i = 0; i < 30 && (tree == null || tree.code() == 0); i++) { // until both await
                tree = run("pstree", cycle.pid());
                Thread.sleep(tree.code() == 0 ? 100 : 0);
            }
            assertEquals(1, tree.code(), tree.out() + tree.err());
            assertEquals("", tree.out());
            assertEquals("ERROR: await-graph contains cycles - cannot print a tree!\n\ncycle: Task-2 → Task-3 → Task-2\n",
                    tree.err());
            Run ps = run("ps", cycle.pid()); // ps lists them all, cycle or not
            assertEquals(0, ps.code(), ps.err());
            assertTrue(ps.out().lines().anyMatch(l -> l.matches(".* Task-3 +waiting +Asyncio.await -> Album.cycle"
                    + " +Asyncio.await -> Album.cycle +Task-2 +0x\\p{XDigit}+")), ps.out());
        } finally {
            cycle.destroyForcibly().waitFor();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aJvmWithoutJasyncioIsToldApart(@TempDir Path plain) throws Exception {
        java.nio.file.Files.writeString(plain.resolve("Idle.java"), """
                public class Idle {
                    public static void main(String[] args) throws Exception {
                        System.out.println("PID: " + ProcessHandle.current().pid());
                        Thread.sleep(60_000);
                    }
                }
                """);
        assertEquals(0, javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", plain.toString(),
                plain.resolve("Idle.java").toString()));
        Process idle = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", plain.toString(), "Idle").redirectErrorStream(true).start();
        try {
            new BufferedReader(new InputStreamReader(idle.getInputStream(), StandardCharsets.UTF_8)).readLine();
            Run r = run("ps", idle.pid());
            assertEquals(2, r.code(), r.out() + r.err());
            assertEquals("jasyncio ps: process " + idle.pid() + " does not use jasyncio (no "
                    + "io.jasyncio.debug.management.TaskGraphBean on its class path)\n", r.err());
        } finally {
            idle.destroyForcibly().waitFor();
        }
    }

    @Test
    void aProcessThatDoesNotExistIsAnError() {
        Run r = run("pstree", Integer.MAX_VALUE - 7);
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("jasyncio pstree: cannot attach to process"), r.err());
    }
}
