package io.jasyncio.net;

import io.jasyncio.loop.Future;
import io.jasyncio.subprocess.Stdio;
import io.jasyncio.subprocess.Subprocess;
import io.jasyncio.subprocess.SubprocessOptions;
import io.jasyncio.subprocess.Subprocesses;
import io.jasyncio.task.Runner;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.gather;
import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * A child whose own child writes after it exited: {@code (sleep 0.5; echo late) & echo early}.
 * asyncio keeps the pipe until every writer closed it, so the output is {@code early\nlate\n}.
 * Run as a program (for {@link GrandchildOutputWithoutExportTest}'s child JVMs): arguments, the loop's
 * name and how many children; prints {@code wiring MODE}, then {@code output ESCAPED} per child.
 */
public final class GrandchildOutput {
    static final String COMMAND = "(sleep 0.5; echo late) & echo early";

    private GrandchildOutput() {
    }

    /** Coroutine: the child's whole stdout, read once it has exited. */
    static String run() throws Exception {
        Subprocess child = Subprocesses.createSubprocessExec(getRunningLoop(), Subprocesses.argv("sh", "-c", COMMAND),
                SubprocessOptions.pipes().withStdin(Stdio.DEVNULL));
        child.waitFor();
        String out = new String(child.stdout().read(-1), StandardCharsets.UTF_8);
        child.stderr().read(-1);
        return out;
    }

    /**
     * Coroutine: {@code children} such children started at once (their grandchildren's half
     * second overlaps), each one's whole stdout in the order they were started.
     */
    static List<String> runAtOnce(int children) throws Exception {
        List<Future<? extends String>> outputs = new ArrayList<>();
        for (int i = 0; i < children; i++) {
            outputs.add(createTask(GrandchildOutput::run));
        }
        return await(gather(outputs));
    }

    public static void main(String[] args) throws Exception {
        int children = Integer.parseInt(args[1]);
        System.out.println("wiring " + Subprocesses.defaultPipeWiring());
        try (Runner runner = new Runner(false, args[0])) {
            for (String out : runner.run(() -> runAtOnce(children))) {
                System.out.println("output " + out.replace("\n", "\\n"));
            }
        }
    }
}
