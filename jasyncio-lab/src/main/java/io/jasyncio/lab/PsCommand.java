package io.jasyncio.lab;

import io.jasyncio.debug.graph.TaskRow;
import io.jasyncio.debug.graph.TaskTable;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.util.List;

/**
 * {@code ./jasyncio ps PID}: asyncio 3.14's {@code python -m asyncio ps} for a running JVM that uses
 * jasyncio: one row per pending task and awaiter (thread, id, name, state, where it is suspended,
 * who awaits it). No flag in the target: see {@link AttachedJvm}.
 */
@Command(name = "ps", mixinStandardHelpOptions = true,
        description = "List the pending tasks of a running jasyncio process: where each is suspended, who awaits it")
final class PsCommand extends TaskGraphCommand {
    PsCommand() {
        this(System.out, System.err);
    }

    PsCommand(PrintStream out, PrintStream err) {
        super(out, err);
    }

    @Override
    public Integer call() {
        try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
            List<TaskRow> rows = jvm.tasks(timeoutMillis);
            TaskTable.render(rows).forEach(out::println);
            return reportUnanswered(jvm);
        } catch (AttachedJvm.Unreachable e) {
            err.println("jasyncio ps: " + e.getMessage());
            return 2;
        }
    }
}
