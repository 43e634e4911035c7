package io.jasyncio.lab;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code ./jasyncio bench}: in progress (see the issue tracker). */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Not built yet.")
final class BenchCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("'bench' is not built yet");
        return 2;
    }
}
