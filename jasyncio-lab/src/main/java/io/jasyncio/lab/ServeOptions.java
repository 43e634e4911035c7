package io.jasyncio.lab;

import io.jasyncio.net.GroupServer;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options every serving command shares (echo-server, http-server): where to listen, which
 * loop, the backlog, and how many loops serve the port (a picocli mixin).
 */
final class ServeOptions {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--loop", defaultValue = "nio", description = "loop implementation: nio, epoll or io_uring (default: ${DEFAULT-VALUE})")
    String loop;

    @Option(names = "--backlog", defaultValue = "1024", description = "listen backlog (default: ${DEFAULT-VALUE})")
    int backlog;

    @Option(names = "--loops", defaultValue = "1",
            description = "loops serving the port, each on its own thread (default: ${DEFAULT-VALUE}: one loop on the main thread)")
    int loops;

    @Option(names = "--spread", defaultValue = "AUTO",
            description = "with --loops > 1, how connections reach the loops: AUTO, REUSE_PORT or ACCEPTOR (default: ${DEFAULT-VALUE})")
    GroupServer.Mode spread;

    /** Refuses a loop count below one. */
    void check(Object command) {
        if (loops < 1) {
            throw new CommandLine.ParameterException(new CommandLine(command), "--loops must be at least 1, not " + loops);
        }
    }
}
