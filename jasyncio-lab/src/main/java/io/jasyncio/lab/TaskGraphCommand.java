package io.jasyncio.lab;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * What {@code ps} and {@code pstree} share: the process to read, how long its loops may take to
 * answer, where the output goes, and the report of loops that did not answer. No flag in the
 * target: see {@link AttachedJvm}.
 */
abstract class TaskGraphCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "the process to read")
    long pid;

    @Option(names = "--timeout", paramLabel = "MS", description = "how long a loop may take to answer (default: ${DEFAULT-VALUE})")
    long timeoutMillis = 5000;

    final PrintStream out;
    final PrintStream err;

    TaskGraphCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Says which loops did not answer (held by a callback); 0 when all did, else 3. */
    int reportUnanswered(AttachedJvm jvm) {
        List<String> late = jvm.unansweredLoops();
        for (String loop : late) {
            err.println("loop " + loop + " did not answer within " + timeoutMillis + " ms (held by a callback?): its tasks are missing");
        }
        return late.isEmpty() ? 0 : 3;
    }
}
