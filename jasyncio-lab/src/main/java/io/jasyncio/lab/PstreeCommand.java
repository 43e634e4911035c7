package io.jasyncio.lab;

import io.jasyncio.debug.graph.AwaitTree;
import picocli.CommandLine.Command;

import java.io.PrintStream;

/**
 * {@code ./jasyncio pstree PID}: asyncio 3.14's {@code python -m asyncio pstree} for a running JVM
 * that uses jasyncio: the await tree, roots first, each task under the frames of the task awaiting
 * it. Tasks awaiting each other are reported as asyncio reports them, on stderr, with exit code 1.
 */
@Command(name = "pstree", mixinStandardHelpOptions = true,
        description = "Show the await tree of a running jasyncio process's tasks")
final class PstreeCommand extends TaskGraphCommand {
    PstreeCommand() {
        this(System.out, System.err);
    }

    PstreeCommand(PrintStream out, PrintStream err) {
        super(out, err);
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
            return reportUnanswered(jvm);
        } catch (AttachedJvm.Unreachable e) {
            err.println("jasyncio pstree: " + e.getMessage());
            return 2;
        }
    }
}
