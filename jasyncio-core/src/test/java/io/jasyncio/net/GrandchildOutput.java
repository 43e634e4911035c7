package io.jasyncio.net;

import io.jasyncio.subprocess.Stdio;
import io.jasyncio.subprocess.Subprocess;
import io.jasyncio.subprocess.SubprocessOptions;
import io.jasyncio.subprocess.Subprocesses;
import io.jasyncio.task.Runner;

import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * A child whose own child writes after it exited: {@code (sleep 0.5; echo late) & echo early}.
 * asyncio keeps the pipe until every writer closed it, so the output is {@code early\nlate\n}.
 * Run as a program (for {@link GrandchildOutputTest}'s child JVMs): arguments, the loop's name and
 * how many runs; prints {@code wiring MODE}, then {@code output ESCAPED} per run.
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

    public static void main(String[] args) throws Exception {
        int runs = Integer.parseInt(args[1]);
        System.out.println("wiring " + Subprocesses.defaultPipeWiring());
        try (Runner runner = new Runner(false, args[0])) {
            for (int i = 0; i < runs; i++) {
                String out = runner.run(GrandchildOutput::run);
                System.out.println("output " + out.replace("\n", "\\n"));
            }
        }
    }
}
