package io.jasyncio.http.client;

import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A streamed request body under write flow control, on every loop: the server reads nothing
 * until the client's transport has asked to pause writing, so the socket's buffers are full; each
 * body write then waits for the buffer to drain instead of piling 16 MiB into memory.
 */
@OnEveryLoop
@EveryEngine
class UploadFlowControlTest {
    private static final int CHUNK = 256 * 1024;
    private static final int CHUNKS = 64; // 16 MiB: far more than the socket's buffers hold
    private static final byte[] LAST_CHUNK = "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @AsyncTest(timeout = 60)
    void eachWriteWaitsWhileTheSocketIsBehind(EventLoop loop) throws Exception {
        CountDownLatch startReading = new CountDownLatch(1);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> received = new CompletableFuture<>();
            Thread server = Thread.ofPlatform().name("late-reader").start(() -> serveLate(listener, startReading, received));
            long[] mostUnsent = {0};
            ClientConnection.RequestBodyWriter[] writer = {null};
            RequestBody upload = RequestBody.streaming(-1, out -> {
                writer[0] = (ClientConnection.RequestBodyWriter) out;
                for (int i = 0; i < CHUNKS; i++) {
                    out.write(new byte[CHUNK]);
                    mostUnsent[0] = Math.max(mostUnsent[0], writer[0].unsentBytes());
                }
            });
            try (HttpClient client = HttpClient.create(loop)) {
                var exchange = createTask(() -> client.send(HttpClientRequest.post(
                        "http://127.0.0.1:" + listener.getLocalPort() + "/upload", upload)));
                while (writer[0] == null || !writer[0].writingPaused()) { // bounded by the test's timeout
                    sleep(0.01);
                }
                startReading.countDown();
                try (HttpClientResponse response = await(exchange)) {
                    assertEquals("ok", response.body().text());
                }
            } finally {
                startReading.countDown();
                server.join(10_000);
            }
            assertTrue(received.get(10, TimeUnit.SECONDS) > (long) CHUNK * CHUNKS, "the whole body arrived, chunked");
            assertTrue(mostUnsent[0] <= Transport.DEFAULT_HIGH_WATER,
                    "each write returned with at most the high-water mark unsent, not " + mostUnsent[0]);
        }
    }

    /** Accepts one connection, reads nothing until told, then reads the chunked request to its end and answers. */
    private static void serveLate(ServerSocket listener, CountDownLatch startReading, CompletableFuture<Long> received) {
        try (Socket s = listener.accept()) {
            s.setSoTimeout(30_000);
            if (!startReading.await(30, TimeUnit.SECONDS)) {
                throw new IOException("never told to read");
            }
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            byte[] recent = new byte[0]; // the last bytes read, as many as the last chunk has
            long total = 0;
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
                byte[] joined = Arrays.copyOf(recent, recent.length + n);
                System.arraycopy(buffer, 0, joined, recent.length, n);
                recent = Arrays.copyOfRange(joined, Math.max(0, joined.length - LAST_CHUNK.length), joined.length);
                if (Arrays.equals(recent, LAST_CHUNK)) {
                    break;
                }
            }
            s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
            received.complete(total);
        } catch (Exception e) {
            received.completeExceptionally(e);
        }
    }
}
