package io.jasyncio.lab;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The echo load generator: N connections on ONE thread and one Selector, each playing ping-pong
 * (send SIZE bytes, read SIZE bytes back, repeat). Reading and writing overlap, so a message larger
 * than the socket buffers cannot deadlock against a server that stops reading while its writes
 * are blocked. Nothing is allocated per message: each connection owns two direct buffers,
 * reused, and the selector is driven with {@code select(Consumer)} (no selected-key set).
 * Latency is first byte sent to last byte received, recorded in an HdrHistogram.
 */
final class EchoLoadClient {
    private static final long SELECT_TIMEOUT_MS = 50;

    private final InetSocketAddress server;
    private final int connections;
    private final int size;
    private final ProcessCpu serverCpu;

    /** {@code serverCpu}, when not null, is read at the start and end of the measured window. */
    EchoLoadClient(InetSocketAddress server, int connections, int size, ProcessCpu serverCpu) {
        this.server = server;
        this.connections = connections;
        this.size = size;
        this.serverCpu = serverCpu;
    }

    /**
     * What a run measured (the warm-up excluded). {@code serverCpuSeconds} is the server's CPU
     * time over the measured window, or -1 when no server process was given.
     */
    record Result(long messages, long bytes, long errors, double seconds, Histogram latencyNanos,
                  double serverCpuSeconds) {
        double messagesPerSecond() {
            return messages / seconds;
        }

        double mibPerSecond() {
            return bytes / seconds / (1024.0 * 1024.0);
        }

        double percentileMicros(double p) {
            return latencyNanos.getTotalCount() == 0 ? 0 : latencyNanos.getValueAtPercentile(p) / 1000.0;
        }

        /** The server's CPU microseconds per echoed message; NaN when unknown. */
        double serverCpuMicrosPerMessage() {
            return serverCpuSeconds < 0 || messages == 0 ? Double.NaN : serverCpuSeconds * 1e6 / messages;
        }

        String summaryLine() {
            String line = String.format(Locale.ROOT,
                    "RESULT msgs_per_s=%.0f mib_per_s=%.2f p50_us=%.1f p99_us=%.1f p999_us=%.1f errors=%d",
                    messagesPerSecond(), mibPerSecond(), percentileMicros(50), percentileMicros(99),
                    percentileMicros(99.9), errors);
            if (serverCpuSeconds >= 0) {
                line += String.format(Locale.ROOT, " server_cpu_s=%.2f server_cpu_us_per_msg=%.3f",
                        serverCpuSeconds, serverCpuMicrosPerMessage());
            }
            return line;
        }
    }

    /** One ping-pong connection: its buffers, where its current message is, and when it left. */
    private final class Connection {
        final SocketChannel channel;
        final ByteBuffer out;
        final ByteBuffer in;
        SelectionKey key;
        long sentAt;

        Connection(SocketChannel channel) {
            this.channel = channel;
            this.out = ByteBuffer.allocateDirect(size);
            this.in = ByteBuffer.allocateDirect(size);
            for (int i = 0; i < size; i++) {
                out.put(i, (byte) ('a' + i % 26));
            }
        }

        /** Sends the next message: as much as the socket takes now, the rest when writable. */
        void startMessage(long now) throws IOException {
            out.clear();
            in.clear();
            sentAt = now;
            channel.write(out);
            key.interestOps(out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }
    }

    // Counters of the phase in progress; reset when the warm-up ends.
    private long messages;
    private long bytes;
    private long errors;
    private boolean measuring;
    private Histogram latency;
    private int open;

    Result run(long warmupNanos, long durationNanos) throws IOException {
        latency = new Histogram(3);
        List<Connection> all = new ArrayList<>(connections);
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < connections; i++) {
                SocketChannel ch = SocketChannel.open();
                all.add(new Connection(ch));
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.connect(server);
                ch.configureBlocking(false);
            }
            long now = System.nanoTime();
            for (Connection c : all) {
                c.key = c.channel.register(selector, 0, c);
                c.startMessage(now);
            }
            open = connections;
            long measureFrom = now + warmupNanos;
            long end = measureFrom + durationNanos;
            measuring = false;
            double cpuAtStart = -1;
            while (open > 0) {
                now = System.nanoTime();
                if (!measuring && now >= measureFrom) {
                    cpuAtStart = serverCpu != null ? serverCpu.seconds() : -1;
                    messages = 0;              // errors are never reset: they count the whole run
                    bytes = 0;
                    latency.reset();
                    measuring = true;
                }
                if (now >= end) {
                    break;
                }
                long waitMs = Math.max(1, Math.min(SELECT_TIMEOUT_MS, (end - now) / 1_000_000));
                selector.select(this::onReady, waitMs);
            }
            double seconds = (Math.min(System.nanoTime(), end) - measureFrom) / 1e9;
            double cpu = serverCpu != null && cpuAtStart >= 0 ? serverCpu.seconds() - cpuAtStart : -1;
            return new Result(messages, bytes, errors, Math.max(seconds, 1e-9), latency, cpu);
        } finally {
            for (Connection c : all) {
                try {
                    c.channel.close();
                } catch (IOException ignored) {
                    // closing at the end of the run: nothing left to report
                }
            }
        }
    }

    private void onReady(SelectionKey key) {
        Connection c = (Connection) key.attachment();
        try {
            if (key.isWritable() && c.out.hasRemaining()) {
                c.channel.write(c.out);
                if (!c.out.hasRemaining()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            }
            if (key.isReadable()) {
                int n = c.channel.read(c.in);
                if (n < 0) {
                    throw new IOException("server closed the connection mid-message");
                }
                if (!c.in.hasRemaining()) {
                    long now = System.nanoTime();
                    messages++;
                    bytes += size;
                    if (measuring) {
                        latency.recordValue(now - c.sentAt);
                    }
                    c.startMessage(now);
                }
            }
        } catch (IOException | RuntimeException e) {
            errors++;
            key.cancel();
            open--;
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // already failing: the error is counted
            }
        }
    }
}
