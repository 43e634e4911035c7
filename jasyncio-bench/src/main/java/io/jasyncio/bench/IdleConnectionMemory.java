package io.jasyncio.bench;

import io.jasyncio.Asyncio;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.Network;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.management.ObjectName;

/**
 * What an idle connection costs a server: an echo server (the protocol API, or streams with a
 * handler waiting in {@code read}) on 127.0.0.1 that waits for N connections from another process
 * (bench/idle-memory.sh), then measures the heap used after a full GC and the resident set size,
 * against the same taken once it listened. The connections stay idle: nothing is sent.
 *
 * <p>With {@code -Didle.histogram=PREFIX}, the heap's class histogram is written to
 * {@code PREFIX.before} and {@code PREFIX.after} too (what each connection holds, class by class).
 *
 * <p>Prints {@code PORT p} once listening, then one line:
 * {@code RESULT api=A loop=L connections=N heap_bytes_per_conn=H rss_bytes_per_conn=R}.
 */
public final class IdleConnectionMemory {
    private IdleConnectionMemory() {
    }

    public static void main(String[] args) throws Exception {
        int connections = Integer.parseInt(args[0]);
        String api = args[1];
        if (!api.equals("protocol") && !api.equals("streams")) {
            throw new IllegalArgumentException("api must be protocol or streams: " + api);
        }
        String result = Asyncio.run(() -> serve(connections, api));
        System.out.println(result);
    }

    private static String serve(int connections, String api) throws Exception {
        EventLoop loop = Asyncio.getRunningLoop();
        Future<Void> allIn = loop.createFuture();
        int[] made = new int[1];
        Runnable oneMore = () -> {
            if (++made[0] == connections) {
                allIn.setResult(null);
            }
        };
        ServerOptions options = ServerOptions.defaults().withBacklog(4096);
        Server server = api.equals("protocol")
                ? Network.createServer(loop, () -> new Echo(oneMore), List.of("127.0.0.1"), 0, options)
                : Asyncio.startServer((reader, writer) -> echo(reader, writer, oneMore), "127.0.0.1", 0, options);
        long heapBefore = heapAfterGc();
        long rssBefore = rss();
        histogram("before");
        System.out.println("PORT " + server.port());
        System.out.flush();
        Asyncio.await(allIn);
        Asyncio.sleep(1.0); // every handler reached its read; the accept backlog is empty
        long heapAfter = heapAfterGc();
        long rssAfter = rss();
        histogram("after");
        String loopName = System.getProperty("jasyncio.loop", "nio");
        return String.format("RESULT api=%s loop=%s connections=%d heap_bytes_per_conn=%d rss_bytes_per_conn=%d",
                api, loopName, connections, (heapAfter - heapBefore) / connections, (rssAfter - rssBefore) / connections);
    }

    /** asyncio's echo protocol: keeps its transport, writes back what it gets. */
    private static final class Echo implements Protocol {
        private final Runnable made;
        private Transport transport;

        Echo(Runnable made) {
            this.made = made;
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
            made.run();
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            transport.write(data);
        }

        @Override
        public void connectionLost(Throwable exc) {
        }
    }

    /** asyncio's streams echo handler: waits in read, writes back, until the end. */
    private static void echo(StreamReader reader, StreamWriter writer, Runnable made) throws Exception {
        made.run();
        while (true) {
            byte[] data = reader.read(65536);
            if (data.length == 0) {
                break;
            }
            writer.write(data);
            writer.drain();
        }
        writer.close();
    }

    /** Heap used after full collections (three: what a first one leaves to finalization goes in the next). */
    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** With -Didle.histogram=PREFIX: the live objects' class histogram into PREFIX.{@code when}. */
    private static void histogram(String when) throws Exception {
        String prefix = System.getProperty("idle.histogram");
        if (prefix == null) {
            return;
        }
        Object text = ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        Files.writeString(Path.of(prefix + "." + when), text.toString());
    }

    /** This process's resident set size (Linux), in bytes. */
    private static long rss() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS in /proc/self/status");
    }
}
