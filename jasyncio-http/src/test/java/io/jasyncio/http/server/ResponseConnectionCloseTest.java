package io.jasyncio.http.server;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A handler's own {@code Connection: close} ends the connection after its response (RFC 9112
 * §9.6), as the client's does: the requests pipelined after it are not answered, and the field
 * is sent once.
 */
@EveryEngine
class ResponseConnectionCloseTest {
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aWholeResponseSayingCloseClosesTheConnection(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.start(getRunningLoop(),
                    request -> new HttpResponse(200, HttpHeaders.of("Connection", "close"),
                            request.target().getBytes(StandardCharsets.US_ASCII)),
                    "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            client.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
            client.connection.writer().writeEof(); // a server that kept the connection would answer /2, then close
            TestClient.Received first = client.response();
            assertEquals("/1", first.text());
            assertEquals(List.of("close"), first.head().headers().getAll("Connection"), "the field once");
            assertEquals(0, client.readUntilEof().length, "then the server closes: /2 is not answered");
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aStreamedResponseSayingCloseClosesTheConnection(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.startStreaming(getRunningLoop(), exchange -> {
                exchange.startResponse(200, HttpHeaders.of("Connection", "close"));
                exchange.write(exchange.request().target().getBytes(StandardCharsets.US_ASCII));
                exchange.end();
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            client.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n");
            client.connection.writer().writeEof(); // a server that kept the connection would answer /2, then close
            TestClient.Received first = client.response();
            assertEquals("/1", first.text());
            assertEquals(List.of("close"), first.head().headers().getAll("Connection"));
            assertEquals(0, client.readUntilEof().length, "then the server closes: /2 is not answered");
            client.close();
            server.shutdown(5);
            return null;
        });
    }
}
