package io.jasyncio.subprocess;

import io.jasyncio.loop.LoopsUnderTest;
import io.jasyncio.net.NetTesting;
import io.jasyncio.task.Coroutine;
import org.junit.jupiter.params.provider.Arguments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.jasyncio.Asyncio.sleep;

/**
 * Plumbing for the child process tests: every loop, each with both ways of wiring a child's pipes
 * (direct and pumped, see io.jasyncio.subprocess.ChildPipes), and what /proc says about our fds
 * and children.
 */
final class SubprocessTesting {
    private static final String MODE_PROPERTY = "jasyncio.subprocess.pipes";

    private SubprocessTesting() {
    }

    /** (loop, pipe mode) for every loop under test and both modes (direct only where it is possible). */
    static Stream<Arguments> loopsAndModes() {
        List<Arguments> cases = new ArrayList<>();
        for (String loop : LoopsUnderTest.names()) {
            if (Subprocesses.defaultPipeWiring().equals("direct")) {
                cases.add(Arguments.of(loop, "direct"));
            }
            cases.add(Arguments.of(loop, "pumped"));
        }
        return cases.stream();
    }

    /** Runs {@code body} on loop {@code loopName} with children's pipes wired the {@code mode} way. */
    static <T> T run(String loopName, String mode, double seconds, Coroutine<T> body) {
        String before = System.getProperty(MODE_PROPERTY);
        System.setProperty(MODE_PROPERTY, mode);
        try {
            return NetTesting.run(loopName, seconds, body);
        } finally {
            if (before == null) {
                System.clearProperty(MODE_PROPERTY);
            } else {
                System.setProperty(MODE_PROPERTY, before);
            }
        }
    }

    /** The pids of this JVM's children that are zombies (exited, not reaped). */
    static List<Long> zombieChildren() throws IOException {
        long self = ProcessHandle.current().pid();
        List<Long> zombies = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                if (!entry.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String stat;
                try {
                    stat = Files.readString(entry.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'
                String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (rest[0].equals("Z") && Long.parseLong(rest[1]) == self) {
                    zombies.add(Long.parseLong(entry.getFileName().toString()));
                }
            }
        }
        return zombies;
    }

    /**
     * Waits (on the loop, at most {@code seconds}) until {@code done} holds: for what settles after
     * the loop saw the end, as pump threads closing the JDK's streams or the JDK's reaper.
     */
    static boolean eventually(double seconds, Check done) throws IOException {
        for (int i = 0; i < seconds * 100; i++) {
            if (done.holds()) {
                return true;
            }
            sleep(0.01);
        }
        return done.holds();
    }

    interface Check {
        boolean holds() throws IOException;
    }
}
