package io.jasyncio.http.server;

import io.jasyncio.debug.LogCapture;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.loop.CancelledError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.util.logging.Level;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The send timeout over real sockets: a client that stops reading its response does not hold its
 * connection (and the handler writing to it) forever; one that reads slowly but steadily is
 * served to the end. Each waits for the server's act (the connection gone, the body complete).
 */
class SendTimeoutTest {
    private static final int PIECE = 16 * 1024;
    /** 64 MB: far more than the kernel holds between the two ends (the client's receive buffer is set small). */
    private static final int PIECES = 4096;

    /** The drop was logged, once, at INFO on the server's logger, saying why (captured: a passing run prints nothing). */
    private static void assertDroppedAndLogged(LogCapture log) {
        assertFalse(log.containing(Level.INFO, "(it stopped reading)").isEmpty(), "the drop is logged: " + log.messages());
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aStreamingResponseToAClientThatStoppedReadingIsDropped(String loop) {
        try (LogCapture log = new LogCapture("io.jasyncio.http.server")) {
            HttpTesting.run(loop, 10, () -> {
                String[] seen = new String[1];
                HttpServer server = HttpServer.startStreaming(getRunningLoop(), exchange -> {
                    exchange.startResponse(200, HttpHeaders.empty(), (long) PIECE * PIECES);
                    byte[] piece = new byte[PIECE];
                    try {
                        for (int i = 0; i < PIECES; i++) {
                            exchange.write(piece);
                        }
                    } catch (CancelledError | IOException e) {
                        seen[0] = e.getMessage();
                        throw e;
                    }
                    exchange.end();
                }, "127.0.0.1", 0, HttpServerOptions.defaults().withSendTimeout(0.3));
                TestClient client = stalledClient(server, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
                HttpTesting.until(() -> server.connectionCount() == 0);
                HttpTesting.until(() -> seen[0] != null);
                assertTrue(seen[0].contains("stopped reading"), "the handler learns why: " + seen[0]);
                client.close();
                server.shutdown(5);
                return null;
            });
            assertDroppedAndLogged(log);
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aWholeResponseStuckInTheBufferIsDropped(String loop) {
        // the close waits for no flush past the timeout
        assertWholeResponseDropped(loop, "Connection: close\r\n", HttpServerOptions.defaults().withSendTimeout(0.3));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aWholeResponseOnAKeptConnectionStuckInTheBufferIsDropped(String loop) {
        // keep-alive, and the send timeout alone: no rate floor to drop the client first
        assertWholeResponseDropped(loop, "", HttpServerOptions.defaults().withSendTimeout(0.3).withMinResponseRate(null));
    }

    /** A 32 MB whole response to a client that reads nothing: dropped within 3 s, and logged. */
    private static void assertWholeResponseDropped(String loop, String extraHeaderLines, HttpServerOptions options) {
        try (LogCapture log = new LogCapture("io.jasyncio.http.server")) {
            HttpTesting.run(loop, 10, () -> {
                HttpResponse big = HttpResponse.of(200, "application/octet-stream", new byte[PIECE * 2048]);
                HttpServer server = HttpServer.start(getRunningLoop(), request -> big, "127.0.0.1", 0, options);
                TestClient client = stalledClient(server, "GET /big HTTP/1.1\r\nHost: x\r\n" + extraHeaderLines + "\r\n");
                HttpTesting.within(3, () -> server.connectionCount() == 0, () -> "the stalled connection is still open");
                client.close();
                server.shutdown(5);
                return null;
            });
            assertDroppedAndLogged(log);
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aSlowButSteadyReaderGetsItsWholeResponse(String loop) {
        HttpTesting.run(loop, 10, () -> {
            // 16 MB read 256 KiB per 20 ms: longer than the send timeout in all, never stalled
            // that long (the kernel's send buffer wakes the writer only once it is half empty:
            // the pauses the server sees are the time to read that half, ~0.2 s here)
            int pieces = 1024;
            HttpServer server = HttpServer.startStreaming(getRunningLoop(), exchange -> {
                exchange.startResponse(200, HttpHeaders.empty(), (long) PIECE * pieces);
                byte[] piece = new byte[PIECE];
                for (int i = 0; i < pieces; i++) {
                    exchange.write(piece);
                }
                exchange.end();
            }, "127.0.0.1", 0, HttpServerOptions.defaults().withSendTimeout(1.0));
            TestClient client = TestClient.connect(server.port(), 64 * 1024);
            client.socket().setOption(StandardSocketOptions.SO_RCVBUF, 32 * 1024);
            client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
            long received = 0;
            for (int reads = 1; received < (long) PIECE * pieces; reads++) {
                byte[] more = client.connection.reader().read(64 * 1024);
                if (more.length == 0) {
                    break;
                }
                received += more.length;
                if (reads % 4 == 0) {
                    io.jasyncio.Asyncio.sleep(0.02);
                }
            }
            assertTrue(received >= (long) PIECE * pieces, "the whole body (and its head) arrived: " + received);
            assertEquals(1, server.connectionCount(), "and the connection is kept");
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    /** Coroutine: a client that sends {@code request} and never reads (its buffers small). */
    private static TestClient stalledClient(HttpServer server, String request) throws IOException {
        TestClient client = TestClient.connect(server.port(), 16 * 1024);
        client.socket().setOption(StandardSocketOptions.SO_RCVBUF, 32 * 1024);
        client.send(request);
        HttpTesting.until(() -> server.connectionCount() > 0);
        return client;
    }
}
