package io.jasyncio.subprocess;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.net.NetTesting;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import io.jasyncio.testing.OpenFds;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createSubprocessExec;
import static io.jasyncio.Asyncio.createSubprocessShell;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Child processes with pipes as streams, against real programs, on every loop and both pipe wirings. */
@Timeout(60)
@EveryLoop
@EveryEngine
class SubprocessTest {
    private static final SubprocessOptions IN_OUT = SubprocessOptions.defaults()
            .withStdin(Stdio.PIPE).withStdout(Stdio.PIPE);

    static Stream<org.junit.jupiter.params.provider.Arguments> cases() {
        return SubprocessTesting.loopsAndModes();
    }

    private static String text(byte[] b) {
        return new String(b);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void linesEchoThroughCat(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 20, () -> {
            Subprocess cat = createSubprocessExec(IN_OUT, "cat");
            assertNull(cat.stderr());
            for (String line : List.of("hello\n", "world\n")) {
                cat.stdin().write(line.getBytes());
                cat.stdin().drain();
                assertEquals(line, text(cat.stdout().readline()));
            }
            cat.stdin().write("no newline".getBytes());
            cat.stdin().close();
            assertEquals("no newline", text(cat.stdout().read(-1)));
            assertTrue(cat.stdout().atEof());
            assertEquals(0, cat.waitFor());
            assertEquals(0, cat.returncode());
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void pipelineOutputReadToItsEndThenClosingThePipeEndsAWriter(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 20, () -> {
            SubprocessOptions out = SubprocessOptions.defaults().withStdout(Stdio.PIPE);
            Subprocess head = createSubprocessShell("yes | head -c 3000000", out);
            byte[] all = head.stdout().read(-1);
            assertEquals(3_000_000, all.length);
            assertEquals("y\ny\n", text(Arrays.copyOf(all, 4)));
            assertEquals(0, head.waitFor());

            // yes writes forever; once we close our end it gets EPIPE (and SIGPIPE) and dies
            Subprocess yes = createSubprocessExec(out, "yes");
            assertEquals(1 << 20, yes.stdout().readexactly(1 << 20).length);
            yes.transport().getPipeTransport(1).close();
            // killed by SIGPIPE (13), which we did not send: the JDK says 128 + 13 (see Subprocess)
            assertEquals(128 + 13, yes.waitFor());
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void protocolLevelEventsEndWithConnectionLost(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 20, () -> {
            SubprocessConnection<RecordingSubprocessProtocol> c = Subprocesses.subprocessShell(getRunningLoop(),
                    RecordingSubprocessProtocol::new, "echo out; echo err >&2; exit 4",
                    SubprocessOptions.pipes().withStdin(Stdio.DEVNULL));
            RecordingSubprocessProtocol p = c.protocol();
            assertEquals(List.of("connectionMade"), p.events);
            assertNull(c.transport().getPipeTransport(0));
            assertTrue(c.transport().getExtraInfo("subprocess") instanceof Process);
            await(p.lost);
            assertEquals("out\n", p.received[1].toString());
            assertEquals("err\n", p.received[2].toString());
            assertEquals(4, c.transport().getReturncode());
            // the pipes and the exit come in whichever order the system delivers them; connectionLost last
            assertEquals(Set.of("pipeConnectionLost 1 null", "pipeConnectionLost 2 null", "processExited 4"),
                    Set.copyOf(p.events.subList(1, 4)));
            assertEquals(List.of("connectionLost null"), p.events.subList(4, p.events.size()));
            c.transport().close();
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void readmeExample(String loop, String mode) {
        assertEquals("HELLO, CHILD\nping\ncat: -9", SubprocessTesting.run(loop, mode, 20, ReadmeSubprocessExample::main));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void communicateTenMibInAndOutDoesNotDeadlock(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 30, () -> {
            byte[] input = NetTesting.pattern(10 << 20, 14);
            Subprocess cat = createSubprocessExec(IN_OUT.withStderr(Stdio.PIPE), "cat");
            Subprocess.Output output = cat.communicate(input);
            assertArrayEquals(input, output.stdout());
            assertEquals(0, output.stderr().length);
            assertEquals(0, cat.returncode());
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void exitCodesAndWhereStreamsGo(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 20, () -> {
            SubprocessOptions pipes = SubprocessOptions.pipes();
            assertEquals(3, createSubprocessShell("exit 3", pipes).waitFor());
            // 137 is a plain exit status here, not a kill: nobody sent a signal
            assertEquals(137, createSubprocessShell("exit 137", pipes).waitFor());

            Subprocess both = createSubprocessShell("echo out; echo err >&2; exit 5",
                    pipes.withStderr(Stdio.STDOUT));
            assertNull(both.stderr());
            Subprocess.Output merged = both.communicate(null);
            assertEquals("out\nerr\n", text(merged.stdout()));
            assertEquals(5, both.returncode());

            Subprocess split = createSubprocessShell("echo out; echo err >&2", pipes);
            Subprocess.Output separate = split.communicate(null);
            assertEquals("out\n", text(separate.stdout()));
            assertEquals("err\n", text(separate.stderr()));

            Subprocess quiet = createSubprocessExec(pipes.withStdin(Stdio.DEVNULL).withStderr(Stdio.DEVNULL), "cat");
            assertNull(quiet.stdin());
            assertEquals(0, quiet.communicate(null).stdout().length);

            Path dir = Files.createTempDirectory("jasyncio-subprocess").toRealPath();
            try {
                Subprocess where = createSubprocessShell("pwd; echo \"$GREETING\"",
                        pipes.withCwd(dir).withEnv(Map.of("GREETING", "hello", "PATH", System.getenv("PATH"))));
                assertEquals(dir + "\nhello\n", text(where.communicate(null).stdout()));
            } finally {
                Files.delete(dir);
            }

            assertThrows(IOException.class, () -> createSubprocessExec(pipes, "/nonexistent/program"));
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void childKilledBySignalReportsNegativeReturncode(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 20, () -> {
            SubprocessOptions out = SubprocessOptions.defaults().withStdout(Stdio.PIPE);
            // SIGUSR1 goes through libc's kill (not SIGINT: a JVM started in the background passes
            // SIGINT on ignored, and the child would ignore it too)
            int[][] cases = {{Signals.SIGTERM, -15}, {Signals.SIGKILL, -9}, {Signals.SIGUSR1, -10}};
            for (int[] c : cases) {
                // the child says it runs before we signal it, so the signal cannot beat its start
                Subprocess sleeper = createSubprocessShell("echo started; exec sleep 30", out);
                assertEquals("started\n", text(sleeper.stdout().readline()));
                sleeper.sendSignal(c[0]);
                assertEquals(c[1], sleeper.waitFor(), "signal " + c[0]);
                assertEquals(0, sleeper.stdout().read(-1).length);
                sleeper.sendSignal(Signals.SIGTERM); // after the exit: nothing happens
            }
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void waitReturnsAtExitWithPipesStillUnread(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 20, () -> {
            Subprocess child = createSubprocessShell("echo hi", SubprocessOptions.pipes());
            assertEquals(0, child.waitFor());
            assertEquals("hi\n", text(child.stdout().read(-1)));
            assertEquals(0, child.stderr().read(-1).length);
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void cancellingCommunicateKillsAndReapsTheChild(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 20, () -> {
            // sleep ignores its stdin and writes nothing: communicate would wait for it for 30 s
            Subprocess sleeper = createSubprocessShell("exec sleep 30", SubprocessOptions.pipes());
            Task<Subprocess.Output> talking = createTask(() -> sleeper.communicate("input".getBytes()));
            for (int i = 0; i < 5; i++) {
                sleep(0);
            }
            assertFalse(talking.isDone());
            talking.cancel();
            assertThrows(CancelledError.class, () -> await(talking));
            assertEquals(-9, sleeper.waitFor());
            long pid = sleeper.pid();
            assertTrue(SubprocessTesting.eventually(5, () -> !SubprocessTesting.zombieChildren().contains(pid)),
                    "child " + pid + " left as a zombie");
            return null;
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void twoHundredChildrenLeaveNoFdAndNoZombie(String loop, String mode) {
        // the other wiring: fewer (each spawn costs a few ms of CPU), enough to see fds left behind
        int children = mode.equals(Subprocesses.defaultPipeWiring()) ? 200 : 50;
        SubprocessTesting.run(loop, mode, 40, () -> {
            int fdsBefore = OpenFds.count();
            for (int i = 0; i < children; i++) {
                Subprocess child = createSubprocessShell("echo " + i + "; echo e >&2", SubprocessOptions.pipes());
                Subprocess.Output output = child.communicate(("in " + i).getBytes());
                assertEquals(i + "\n", text(output.stdout()));
                assertEquals(0, child.returncode());
            }
            assertTrue(SubprocessTesting.eventually(5, () -> OpenFds.count() <= fdsBefore),
                    "open fds: " + fdsBefore + " before, " + OpenFds.count() + " after");
            assertTrue(SubprocessTesting.eventually(5, () -> SubprocessTesting.zombieChildren().isEmpty()),
                    "zombies: " + SubprocessTesting.zombieChildren());
            return null;
        });
    }
}
