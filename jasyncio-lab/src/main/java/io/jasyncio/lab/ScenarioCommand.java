package io.jasyncio.lab;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.conformance.Scenarios;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** {@code ./jasyncio scenario NAME}: runs one scenario port; its trace is all that reaches stdout. */
@Command(name = "scenario", mixinStandardHelpOptions = true,
        description = "Run the Java port of a reference scenario and print its trace.")
final class ScenarioCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "NAME", description = "the scenario's file stem, e.g. 01_call_soon_fifo")
    String name;

    @Option(names = "--list", description = "list the ported scenarios")
    boolean list;

    @Option(names = "--loop", defaultValue = "nio", description = "loop implementation: nio or epoll (default: ${DEFAULT-VALUE})")
    String loop;

    @Override
    public Integer call() throws Exception {
        if (list || name == null) {
            for (Scenario s : Scenarios.all()) {
                System.out.println(s.name());
            }
            return name == null && !list ? 2 : 0;
        }
        Scenario scenario = Scenarios.byName(name).orElse(null);
        if (scenario == null) {
            System.err.println("no ported scenario named '" + name + "' (see --list)");
            return 2;
        }
        PrintStream out = System.out;
        scenario.run(out, loop);
        return 0;
    }
}
