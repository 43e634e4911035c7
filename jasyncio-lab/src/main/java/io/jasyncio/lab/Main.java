package io.jasyncio.lab;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The jasyncio command line: {@code ./jasyncio <command>}. */
@Command(name = "jasyncio", mixinStandardHelpOptions = true, version = "jasyncio " + Main.VERSION,
        description = "asyncio's event loop, rebuilt in Java 25: the lab, the scenarios, servers and benchmarks.",
        subcommands = {
                LabCommand.class,
                ScenarioCommand.class,
                EchoServerCommand.class,
                HttpServerCommand.class,
                BenchCommand.class,
                DoctorCommand.class,
                TopCommand.class,
                PsCommand.class,
                PstreeCommand.class,
        })
public final class Main implements Runnable {
    static final String VERSION = "0.1.0";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        int code = new CommandLine(new Main()).execute(args);
        System.exit(code);
    }
}
