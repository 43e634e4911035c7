package io.jasyncio.lab;

import io.jasyncio.debug.graph.AwaitTree;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * {@code ./jasyncio pstree PID}: asyncio 3.14's {@code python -m asyncio pstree} for a running JVM
 * that uses jasyncio: the await tree, roots first, each task under the frames of the task awaiting
 * it. Tasks awaiting each other are reported as asyncio reports them, on stderr, with exit code 1.
 */
@Command(name = "pstree", mixinStandardHelpOptions = true,
        description = "Show the await tree of a running jasyncio process's tasks")
final class PstreeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "the process to read")
    long pid;

    @Option(names = "--timeout", paramLabel = "MS", description = "how long a loop may take to answer (default: ${DEFAULT-VALUE})")
    long timeoutMillis = 5000;

    private final PrintStream out;
    private final PrintStream err;

    PstreeCommand() {
        this(System.out, System.err);
    }

    PstreeCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
            try {
                AwaitTree.render(jvm.tasks(timeoutMillis)).forEach(out::println);
            } catch (AwaitTree.CyclesFound cycles) {
                err.print(cycles.report());
                return 1;
            }
            return PsCommand.reportUnanswered(jvm, err, timeoutMillis);
        } catch (AttachedJvm.Unreachable e) {
            err.println("jasyncio pstree: " + e.getMessage());
            return 2;
        }
    }
}
