package io.jasyncio.net;

import io.jasyncio.task.Runner;

import java.net.InetSocketAddress;

import static io.jasyncio.Asyncio.getRunningLoop;

/**
 * A streams echo server for a child JVM started under a low {@code ulimit -n}
 * ({@link FdExhaustionTest}). It logs nothing of its own, so the first thing the loop ever
 * reports is the failed accept, when no descriptor is left to open a log formatter's files.
 * Arguments: the loop's name. Prints {@code listening on PORT} once it accepts.
 */
public final class FdLimitedEchoServer {
    private FdLimitedEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        try (Runner runner = new Runner(false, args[0])) {
            runner.run(() -> {
                Server server = Streams.startServer(getRunningLoop(), FdLimitedEchoServer::echo, "127.0.0.1", 0,
                        ServerOptions.defaults().withBacklog(1024), StreamReader.DEFAULT_LIMIT);
                System.out.println("listening on " + ((InetSocketAddress) server.addresses().getFirst()).getPort());
                System.out.flush();
                server.serveForever();
                return null;
            });
        }
    }

    private static void echo(StreamReader reader, StreamWriter writer) throws Exception {
        try {
            byte[] data;
            while ((data = reader.read(64 * 1024)).length > 0) {
                writer.write(data);
                writer.drain();
            }
        } finally {
            writer.close();
        }
    }
}
