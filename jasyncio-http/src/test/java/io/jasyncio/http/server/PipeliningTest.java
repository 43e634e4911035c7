package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Pipelined requests are answered strictly in order, whatever order their handlers finish in. */
@EveryEngine
class PipeliningTest {
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void responsesComeInRequestOrder(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<String> started = new ArrayList<>();
            // /slow/N sleeps N ms: an early request that sleeps longest would finish last if run in parallel
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                started.add(request.target());
                String[] parts = request.path().split("/");
                if (parts.length == 3 && parts[1].equals("slow")) {
                    Asyncio.sleep(Integer.parseInt(parts[2]) / 1000.0);
                }
                return HttpResponse.text(200, request.target() + " " + request.bodyText());
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            StringBuilder all = new StringBuilder();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                String target = i % 3 == 0 ? "/slow/" + (30 - i) : "/fast/" + i;
                if (i % 5 == 0) {
                    all.append("POST ").append(target).append(" HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nb").append(i % 10).append('!');
                    expected.add(target + " b" + (i % 10) + "!");
                } else {
                    all.append("GET ").append(target).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
                    expected.add(target + " ");
                }
            }
            client.send(all.toString()); // one write: the server reads them together
            List<String> got = new ArrayList<>();
            for (int i = 0; i < expected.size(); i++) {
                got.add(client.response().text());
            }
            assertEquals(expected, got);
            assertEquals(expected.size(), started.size());
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aClientThatHalfClosesAfterItsRequestsGetsEveryAnswer(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                if (request.path().startsWith("/slow")) {
                    Asyncio.sleep(0.02);
                }
                return HttpResponse.text(200, request.target());
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            // as printf '...' | nc sends them: every request, then EOF
            client.send("GET /slow/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /slow/3 HTTP/1.1\r\nHost: x\r\n\r\nGET /4 HTTP/1.1\r\nHost: x\r\n\r\n");
            client.connection.writer().writeEof();
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                got.add(client.response().text());
            }
            assertEquals(List.of("/slow/1", "/2", "/slow/3", "/4"), got);
            assertEquals(0, client.readUntilEof().length, "then the server closes");
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRequestInALaterReadWaitsForTheHandlerBeforeIt(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<String> started = new ArrayList<>();
            io.jasyncio.loop.Future<Void> release = getRunningLoop().createFuture();
            HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                started.add(request.target());
                if (request.target().equals("/first")) {
                    Asyncio.await(release);
                }
                return HttpResponse.text(200, request.target());
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            client.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n");
            HttpTesting.within(2, () -> started.size() == 1, () -> "started " + started);
            client.send("GET /second HTTP/1.1\r\nHost: x\r\n\r\n"); // a read of its own, the handler still running
            HttpConnection connection = server.connections().list().getFirst();
            HttpTesting.within(2, () -> connection.heldBytes() > 0, () -> "the second request is not held, started " + started);
            assertEquals(List.of("/first"), started, "the second request waits: no handler overlaps the first");
            release.setResult(null);
            assertEquals("/first", client.response().text());
            assertEquals("/second", client.response().text());
            assertEquals(List.of("/first", "/second"), started);
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void requestsSplitAnywhereAcrossReads(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = HttpServer.start(getRunningLoop(), request -> HttpResponse.text(200, request.target()),
                    "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            String two = "GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n";
            for (int cut = 1; cut < two.length(); cut += 7) {
                client.send(two.substring(0, cut));
                if (cut > 30) {
                    assertEquals("/one", client.response().text());
                }
                Asyncio.sleep(0.001); // let the first piece be read on its own
                client.send(two.substring(cut));
                if (cut <= 30) {
                    assertEquals("/one", client.response().text());
                }
                assertEquals("/two", client.response().text());
            }
            client.close();
            server.shutdown(5);
            return null;
        });
    }
}
