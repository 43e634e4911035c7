package io.jasyncio.lab;

import io.jasyncio.debug.graph.TaskRow;
import io.jasyncio.debug.graph.TaskTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./jasyncio ps PID}: asyncio 3.14's {@code python -m asyncio ps} for a running JVM that uses
 * jasyncio: one row per pending task and awaiter (thread, id, name, state, where it is suspended,
 * who awaits it). No flag in the target: see {@link AttachedJvm}.
 */
@Command(name = "ps", mixinStandardHelpOptions = true,
        description = "List the pending tasks of a running jasyncio process: where each is suspended, who awaits it")
final class PsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "the process to read")
    long pid;

    @Option(names = "--timeout", paramLabel = "MS", description = "how long a loop may take to answer (default: ${DEFAULT-VALUE})")
    long timeoutMillis = 5000;

    private final PrintStream out;
    private final PrintStream err;

    PsCommand() {
        this(System.out, System.err);
    }

    PsCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        try (AttachedJvm jvm = AttachedJvm.attach(pid)) {
            List<TaskRow> rows = jvm.tasks(timeoutMillis);
            TaskTable.render(rows).forEach(out::println);
            return reportUnanswered(jvm, err, timeoutMillis);
        } catch (AttachedJvm.Unreachable e) {
            err.println("jasyncio ps: " + e.getMessage());
            return 2;
        }
    }

    /** Says which loops did not answer (held by a callback); 0 when all did, else 3. */
    static int reportUnanswered(AttachedJvm jvm, PrintStream err, long timeoutMillis) {
        List<String> late = jvm.unansweredLoops();
        for (String loop : late) {
            err.println("loop " + loop + " did not answer within " + timeoutMillis + " ms (held by a callback?): its tasks are missing");
        }
        return late.isEmpty() ? 0 : 3;
    }
}
