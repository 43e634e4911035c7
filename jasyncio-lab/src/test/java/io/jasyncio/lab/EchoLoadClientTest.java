package io.jasyncio.lab;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EchoLoadClientTest {
    private static final long MS = 1_000_000L;

    private ServerSocketChannel listener;
    private Thread acceptor;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final AtomicLong echoedInAll = new AtomicLong();

    /** A blocking echo server on loopback, one thread per connection; {@code limit} bytes then close. */
    private InetSocketAddress startServer(long limit) throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        acceptor = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (true) {
                    SocketChannel ch = listener.accept();
                    threads.add(Thread.ofPlatform().daemon().start(() -> echo(ch, limit)));
                }
            } catch (IOException closed) {
                // listener closed by the test
            }
        });
        return (InetSocketAddress) listener.getLocalAddress();
    }

    /** What the server echoed in all, once every connection thread has ended (the client closed them). */
    private long echoedOnceTheClientHasGone() throws InterruptedException {
        for (Thread t : threads) {
            t.join(5_000);
        }
        return echoedInAll.get();
    }

    private void echo(SocketChannel ch, long limit) {
        ByteBuffer buf = ByteBuffer.allocate(16 * 1024);
        long echoed = 0;
        try (ch) {
            while (echoed < limit) {
                buf.clear().limit((int) Math.min(buf.capacity(), limit - echoed));
                int n = ch.read(buf);
                if (n < 0) {
                    return;
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    echoedInAll.addAndGet(ch.write(buf));
                }
                echoed += n;
            }
        } catch (IOException peerGone) {
            // the client closed at the end of its run
        }
    }

    @AfterEach
    void stopServer() throws Exception {
        listener.close();
        acceptor.join(5_000);
        for (Thread t : threads) {
            t.join(5_000);
        }
    }

    @Test
    void countsEveryEchoedMessageAndItsLatency() throws Exception {
        InetSocketAddress server = startServer(Long.MAX_VALUE);
        EchoLoadClient.Result r = new EchoLoadClient(server, 3, 3000, null).run(0, 300 * MS);
        assertTrue(r.messages() > 0, "no message echoed");
        assertEquals(0, r.errors());
        // Without a warm-up every message counts. A message counts once all of it came back, and
        // each connection has at most one in flight when the run ends.
        long echoedBytes = echoedOnceTheClientHasGone();
        assertTrue(r.bytes() <= echoedBytes, "counted " + r.bytes() + " bytes, the server echoed only " + echoedBytes);
        assertTrue(echoedBytes <= r.bytes() + 3 * 3000, "the server echoed " + echoedBytes + " bytes, counted " + r.bytes());
        assertEquals(r.messages(), r.latencyNanos().getTotalCount(), "one latency per message");
        assertTrue(r.summaryLine().matches(
                "RESULT msgs_per_s=\\d+ mib_per_s=[\\d.]+ p50_us=[\\d.]+ p99_us=[\\d.]+ p999_us=[\\d.]+ errors=0"),
                r.summaryLine());
    }

    @Test
    void chargesTheServerProcessCpuToEachMessage() throws Exception {
        InetSocketAddress server = startServer(Long.MAX_VALUE);   // in this JVM: charge this process
        ProcessCpu self = new ProcessCpu(ProcessHandle.current().pid());
        EchoLoadClient.Result r = new EchoLoadClient(server, 2, 1000, self).run(50 * MS, 500 * MS);
        assertTrue(r.serverCpuSeconds() >= 0, "no CPU reading");
        assertTrue(r.summaryLine().matches(".* errors=0 server_cpu_s=[\\d.]+ server_cpu_us_per_msg=[\\d.]+"),
                r.summaryLine());
    }

    @Test
    void messagesLargerThanSocketBuffersDoNotDeadlock() throws Exception {
        InetSocketAddress server = startServer(Long.MAX_VALUE);
        EchoLoadClient.Result r = new EchoLoadClient(server, 2, 4 * 1024 * 1024, null).run(0, 1000 * MS);
        assertTrue(r.messages() > 0, "no 4 MiB message made the round trip");
        assertEquals(0, r.errors());
    }

    @Test
    void aServerThatHangsUpIsCountedAsErrorsAndEndsTheRun() throws Exception {
        InetSocketAddress server = startServer(1000);   // echoes 1000 bytes, then closes
        long start = System.nanoTime();
        EchoLoadClient.Result r = new EchoLoadClient(server, 4, 3000, null).run(0, 20_000 * MS);
        assertEquals(4, r.errors());
        assertEquals(0, r.messages());
        assertTrue(System.nanoTime() - start < 15_000 * MS, "the run waited for its full duration with no connection left");
    }
}
