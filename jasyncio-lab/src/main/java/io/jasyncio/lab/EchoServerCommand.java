package io.jasyncio.lab;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code ./jasyncio echo-server}: in progress (see the issue tracker). */
@Command(name = "echo-server", mixinStandardHelpOptions = true, description = "Not built yet.")
final class EchoServerCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.err.println("'echo-server' is not built yet");
        return 2;
    }
}
