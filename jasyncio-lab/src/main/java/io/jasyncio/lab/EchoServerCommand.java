package io.jasyncio.lab;

import io.jasyncio.group.EventLoopGroup;
import io.jasyncio.net.ConnectionResetException;
import io.jasyncio.net.GroupServer;
import io.jasyncio.net.Network;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.net.Streams;
import io.jasyncio.task.Runner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Callable;

import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * {@code ./jasyncio echo-server}: an echo service until killed, over protocols (the fast path)
 * or streams (the convenient one), on one loop or ({@code --loops N}) on an {@link EventLoopGroup}.
 * Prints {@code listening on HOST:PORT} once it accepts.
 */
@Command(name = "echo-server", mixinStandardHelpOptions = true,
        description = "Serve an echo service until killed (for load tests and benchmarks).")
final class EchoServerCommand implements Callable<Integer> {
    enum Api { protocol, streams }

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--port", defaultValue = "25000", description = "port; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--api", defaultValue = "protocol", description = "protocol or streams (default: ${DEFAULT-VALUE})")
    Api api;

    @Option(names = "--loop", defaultValue = "nio", description = "loop implementation: nio or epoll (default: ${DEFAULT-VALUE})")
    String loop;

    @Option(names = "--backlog", defaultValue = "1024", description = "listen backlog (default: ${DEFAULT-VALUE})")
    int backlog;

    @Option(names = "--loops", defaultValue = "1",
            description = "loops serving the port, each on its own thread (default: ${DEFAULT-VALUE}: one loop on the main thread)")
    int loops;

    @Option(names = "--spread", defaultValue = "AUTO",
            description = "with --loops > 1, how connections reach the loops: AUTO, REUSE_PORT or ACCEPTOR (default: ${DEFAULT-VALUE})")
    GroupServer.Mode spread;

    @Override
    public Integer call() throws Exception {
        if (loops < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--loops must be at least 1, not " + loops);
        }
        if (loops > 1) {
            return serveOnGroup();
        }
        try (Runner runner = new Runner(false, loop)) {
            runner.run(() -> {
                var options = ServerOptions.defaults().withBacklog(backlog);
                Server server = api == Api.protocol
                        ? Network.createServer(getRunningLoop(), EchoProtocol::new, List.of(host), port, options)
                        : Streams.startServer(getRunningLoop(), EchoServerCommand::echoStream, host, port, options,
                                StreamReader.DEFAULT_LIMIT);
                InetSocketAddress bound = (InetSocketAddress) server.addresses().getFirst();
                System.out.println("listening on " + host + ":" + bound.getPort());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
        return 0;
    }

    /** --loops N: an EventLoopGroup of N loops serving one port until killed. */
    private int serveOnGroup() {
        var options = ServerOptions.defaults().withBacklog(backlog);
        try (EventLoopGroup group = new EventLoopGroup(loops, loop)) {
            GroupServer server = (api == Api.protocol
                    ? GroupServer.start(group, l -> new EchoProtocol(), host, port, options, spread)
                    : GroupServer.startStreams(group, EchoServerCommand::echoStream, host, port, options, spread)).join();
            System.out.println(loops + " loops (" + loop + "), connections spread by " + server.mode());
            System.out.println("listening on " + host + ":" + server.port());
            System.out.flush();
            group.terminationFuture().join();
        }
        return 0;
    }

    /**
     * Echoes until EOF. A peer's reset is a normal end for an echo service: it ends quietly too.
     * Bulk data as a user should move it: each read takes whatever is buffered as a view of the
     * reader's buffer (no copy), and writes it before the next await (the view's lifetime).
     */
    static void echoStream(StreamReader reader, StreamWriter writer) throws Exception {
        try {
            while (true) {
                ByteBuffer data = reader.readView(Integer.MAX_VALUE);
                if (!data.hasRemaining()) {
                    break;
                }
                writer.write(data);
                writer.drain();
            }
        } catch (ConnectionResetException reset) {
            // the peer went away: nothing to report
        } finally {
            writer.close();
        }
    }
}
