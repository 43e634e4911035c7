import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.http.server.StreamingHandler;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.runCoroutineThreadsafe;

/**
 * Bytes the loop thread allocates per keep-alive GET answered by {@code respond()} (a 13-byte
 * body): the server on the default loop, one client socket sending a request after each response,
 * the loop thread's allocation counter (ThreadMXBean) read around 100,000 requests, 5 rounds
 * (the first, 50,000, warms up). Deterministic where CPU time is noisy: run by run.sh.
 */
public class AllocProbe {
    public static void main(String[] args) throws Exception {
        HttpResponse response = HttpResponse.of(200, "text/plain", "Hello, world!".getBytes(StandardCharsets.US_ASCII));
        StreamingHandler handler = ex -> ex.respond(response);
        EventLoop loop = EventLoops.newEventLoop();
        CompletableFuture<HttpServer> started = runCoroutineThreadsafe(
                () -> HttpServer.startStreaming(loop, handler, "127.0.0.1", 0, HttpServerOptions.defaults()), loop);
        Thread loopThread = Thread.ofPlatform().name("probe-loop").start(loop::runForever);
        HttpServer server = started.get(10, TimeUnit.SECONDS);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setTcpNoDelay(true);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            out.write(get);
            int length = readResponse(in, buf, -1);
            for (int round = 0; round < 5; round++) {
                int n = round == 0 ? 50_000 : 100_000;
                long before = mx.getThreadAllocatedBytes(loopThread.threadId());
                for (int i = 0; i < n; i++) {
                    out.write(get);
                    readResponse(in, buf, length);
                }
                long after = mx.getThreadAllocatedBytes(loopThread.threadId());
                System.out.printf("round %d: %.1f bytes allocated on the loop thread per request (%d requests)%n",
                        round, (after - before) / (double) n, n);
            }
        }
        System.exit(0);
    }

    /** Reads one response: its length if known, else up to the end of its head plus 13 bytes of body. */
    private static int readResponse(InputStream in, byte[] buf, int length) throws Exception {
        int got = 0;
        while (true) {
            int r = in.read(buf, got, length > 0 ? length - got : buf.length - got);
            if (r < 0) throw new IllegalStateException("closed");
            got += r;
            if (length > 0 && got == length) return got;
            if (length < 0) {
                String text = new String(buf, 0, got, StandardCharsets.US_ASCII);
                int end = text.indexOf("\r\n\r\n");
                if (end >= 0 && got >= end + 4 + 13) return got;
            }
        }
    }
}
