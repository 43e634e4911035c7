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

    @CommandLine.Mixin
    ServeOptions serve;

    @Option(names = "--port", defaultValue = "25000", description = "port; 0 picks a free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--api", defaultValue = "protocol", description = "protocol or streams (default: ${DEFAULT-VALUE})")
    Api api;

    @Override
    public Integer call() {
        serve.check(this);
        if (serve.loops > 1) {
            return serveOnGroup();
        }
        try (Runner runner = new Runner(false, serve.loop)) {
            runner.run(() -> {
                var options = ServerOptions.defaults().withBacklog(serve.backlog);
                Server server = api == Api.protocol
                        ? Network.createServer(getRunningLoop(), EchoProtocol::new, List.of(serve.host), port, options)
                        : Streams.startServer(getRunningLoop(), EchoServerCommand::echoStream, serve.host, port, options,
                                StreamReader.DEFAULT_LIMIT);
                InetSocketAddress bound = (InetSocketAddress) server.addresses().getFirst();
                System.out.println("listening on " + serve.host + ":" + bound.getPort());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
        return 0;
    }

    /** --loops N: an EventLoopGroup of N loops serving one port until killed. */
    private int serveOnGroup() {
        var options = ServerOptions.defaults().withBacklog(serve.backlog);
        try (EventLoopGroup group = new EventLoopGroup(serve.loops, serve.loop)) {
            GroupServer server = (api == Api.protocol
                    ? GroupServer.start(group, l -> new EchoProtocol(), serve.host, port, options, serve.spread)
                    : GroupServer.startStreams(group, EchoServerCommand::echoStream, serve.host, port, options, serve.spread)).join();
            System.out.println(serve.loops + " loops (" + serve.loop + "), connections spread by " + server.mode());
            System.out.println("listening on " + serve.host + ":" + server.port());
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
