package io.jasyncio.http.server;

import io.jasyncio.debug.LogCapture;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.routing.Router;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.net.StreamReader;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The router behind a real server on every loop: what a client gets for each kind of request. */
@EveryEngine
class RouterTest {

    private static HttpServer start(Router router) throws java.io.IOException {
        return HttpServer.startStreaming(getRunningLoop(), router, "127.0.0.1", 0, HttpServerOptions.defaults());
    }

    private static TestClient.Received exchange(HttpServer server, String request, String method) throws java.io.IOException {
        TestClient client = TestClient.connect(server.port());
        try {
            client.send(request);
            return client.response(method);
        } finally {
            client.close();
        }
    }

    private static TestClient.Received get(HttpServer server, String target) throws java.io.IOException {
        return exchange(server, "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n", "GET");
    }

    private static Router users() {
        return Router.builder()
                .get("/users/{id}", request -> HttpResponse.text(200, "user " + request.pathParameter("id")
                        + " tags " + request.queryParameters("tag") + " q " + request.queryParameter("q")))
                .get("/users/me", request -> HttpResponse.text(200, "me"))
                .delete("/users/{id}", request -> HttpResponse.empty(204))
                .get("/files/{path...}", request -> HttpResponse.text(200, "file " + request.pathParameter("path")))
                .build();
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void pathAndQueryParametersArriveDecoded(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start(users());
            TestClient.Received r = get(server, "/users/%31?tag=a&tag=b+c&q=%C3%A9");
            assertEquals(200, r.status());
            assertEquals("user 1 tags [a, b c] q é", r.text());
            assertEquals("me", get(server, "/users/%6De").text());
            assertEquals("file a/b c.txt", get(server, "/files/a/b%20c.txt").text());
            assertEquals("user a/b tags [] q null", get(server, "/users/a%2Fb").text());
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void noRouteIs404WrongMethodIs405WithAllowAndOptionsAnswersAllow(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start(users());
            assertEquals(404, get(server, "/nowhere").status());
            assertEquals(404, get(server, "/users/").status());

            TestClient.Received wrong = exchange(server, "PUT /users/7 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", "PUT");
            assertEquals(405, wrong.status());
            assertEquals("DELETE, GET, HEAD, OPTIONS", wrong.header("Allow"));
            assertEquals(null, wrong.header("Connection"), "no body left unread: the connection stays");
            TestClient.Received wrongWithBody = exchange(server, "PUT /users/7 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", "PUT");
            assertEquals(405, wrongWithBody.status());
            assertEquals("close", wrongWithBody.header("Connection"), "the body is not read: the server closes");

            TestClient.Received options = exchange(server, "OPTIONS /users/7 HTTP/1.1\r\nHost: x\r\n\r\n", "OPTIONS");
            assertEquals(204, options.status());
            assertEquals("DELETE, GET, HEAD, OPTIONS", options.header("Allow"));
            TestClient.Received star = exchange(server, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", "OPTIONS");
            assertEquals(204, star.status());
            assertEquals("DELETE, GET, HEAD, OPTIONS", star.header("Allow"));
            assertEquals(404, exchange(server, "OPTIONS /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", "OPTIONS").status());
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void headIsServedByGetWithItsHeadersAndNoBody(String loop) {
        HttpTesting.run(loop, 20, () -> {
            HttpServer server = start(users());
            TestClient client = TestClient.connect(server.port());
            client.send("HEAD /users/42 HTTP/1.1\r\nHost: x\r\n\r\nGET /users/42 HTTP/1.1\r\nHost: x\r\n\r\n");
            TestClient.Received head = client.response("HEAD");
            TestClient.Received get = client.response("GET");
            assertEquals(200, head.status());
            assertEquals(0, head.body().length);
            assertEquals(String.valueOf(get.body().length), head.header("Content-Length"));
            assertEquals(get.header("Content-Type"), head.header("Content-Type"));
            assertEquals("user 42 tags [] q null", get.text(), "the connection is in step after the HEAD");
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRoutesBodyLimitRefusesLargerBodiesAnnouncedOrChunked(String loop) {
        HttpTesting.run(loop, 20, () -> {
            Router router = Router.builder()
                    .route("POST /small", 10, request -> HttpResponse.bytes(200, request.body()))
                    .post("/large", request -> HttpResponse.text(200, "got " + request.body().length))
                    .build();
            HttpServer server = start(router);
            TestClient.Received fits = exchange(server, "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789", "POST");
            assertEquals(200, fits.status());
            assertEquals("0123456789", fits.text());
            TestClient.Received announced = exchange(server, "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n01234567890", "POST");
            assertEquals(413, announced.status());
            assertEquals("close", announced.header("Connection"), "the body is not read: the server closes");
            TestClient.Received chunked = exchange(server, "POST /small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "6\r\n012345\r\n6\r\n678901\r\n0\r\n\r\n", "POST");
            assertEquals(413, chunked.status());
            TestClient.Received large = exchange(server, "POST /large HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n01234567890", "POST");
            assertEquals("got 11", large.text());
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theErrorHandlerChoosesTheResponseToAnException(String loop) {
        HttpTesting.run(loop, 20, () -> {
            Router router = Router.builder()
                    .get("/items/{id}", request -> {
                        throw new java.util.NoSuchElementException("no item " + request.pathParameter("id"));
                    })
                    .onError((request, error) -> error instanceof java.util.NoSuchElementException
                            ? HttpResponse.text(404, error.getMessage()).withHeader("X-Error", "missing")
                            : Router.logAndAnswer500(request, error))
                    .build();
            HttpServer server = start(router);
            TestClient.Received r = get(server, "/items/9");
            assertEquals(404, r.status());
            assertEquals("no item 9", r.text());
            assertEquals("missing", r.header("X-Error"));
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void byDefaultAnExceptionIsLoggedAnd500(String loop) {
        try (LogCapture log = new LogCapture("io.jasyncio.loop")) {
            HttpTesting.run(loop, 20, () -> {
                // this test expects a report: the loop's own handler logs it, where the capture reads it
                getRunningLoop().setExceptionHandler((l, context) -> l.defaultExceptionHandler(context));
                Router router = Router.builder()
                        .get("/boom", request -> {
                            throw new IllegalStateException("boom in the handler");
                        })
                        .build();
                HttpServer server = start(router);
                TestClient.Received r = get(server, "/boom?x=1");
                assertEquals(500, r.status());
                assertEquals("Internal Server Error", r.text());
                server.shutdown(5);
                return null;
            });
            List<String> logged = log.containing("HTTP route handler failed on GET /boom?x=1");
            assertEquals(1, logged.size(), log.messages().toString());
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void filtersRunInOrderAroundEveryAnswerAndMayAnswerThemselves(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<String> trace = new CopyOnWriteArrayList<>();
            Router router = Router.builder()
                    .filter((request, next) -> {
                        trace.add("log in " + request.path());
                        HttpResponse response = next.handle(request);
                        trace.add("log out " + response.status());
                        return response.withHeader("X-Order", "log");
                    })
                    .filter((request, next) -> {
                        trace.add("auth " + request.path());
                        if (request.path().startsWith("/private") && !"secret".equals(request.header("Authorization"))) {
                            return HttpResponse.text(401, "who are you?").withHeader("WWW-Authenticate", "Bearer");
                        }
                        return next.handle(request);
                    })
                    .filter((request, next) -> {
                        if (request.header("X-Fail") != null) {
                            throw new IllegalArgumentException("a filter's own failure");
                        }
                        return next.handle(request);
                    })
                    .onError((request, error) -> HttpResponse.text(400, error.getMessage()))
                    .get("/private/{x}", request -> HttpResponse.text(200, "secret " + request.pathParameter("x")))
                    .build();
            HttpServer server = start(router);
            TestClient.Received refused = get(server, "/private/1");
            assertEquals(401, refused.status());
            assertEquals("Bearer", refused.header("WWW-Authenticate"));
            assertEquals("log", refused.header("X-Order"));
            assertEquals(List.of("log in /private/1", "auth /private/1", "log out 401"), trace);
            trace.clear();
            TestClient.Received upload = exchange(server, "POST /private/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", "POST");
            assertEquals(401, upload.status());
            assertEquals("close", upload.header("Connection"), "refused unread: the server closes");
            trace.clear();

            TestClient.Received failed = exchange(server, "GET /private/1 HTTP/1.1\r\nHost: x\r\nAuthorization: secret\r\nX-Fail: 1\r\n\r\n", "GET");
            assertEquals(400, failed.status(), "the third filter's exception went to the error handler");
            assertEquals("a filter's own failure", failed.text());
            assertEquals(List.of("log in /private/1", "auth /private/1"), trace, "the error handler answers outside the filters");
            trace.clear();

            TestClient.Received missing = get(server, "/nowhere");
            assertEquals(404, missing.status());
            assertEquals("log", missing.header("X-Order"));
            assertEquals(List.of("log in /nowhere", "auth /nowhere", "log out 404"), trace);
            trace.clear();

            TestClient.Received allowed = exchange(server, "GET /private/2 HTTP/1.1\r\nHost: x\r\nAuthorization: secret\r\n\r\n", "GET");
            assertEquals("secret 2", allowed.text());
            assertEquals(List.of("log in /private/2", "auth /private/2", "log out 200"), trace);
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRouterOfWholeRequestRoutesServesAsAWholeRequestHandler(String loop) {
        HttpTesting.run(loop, 20, () -> {
            Router router = Router.builder()
                    .get("/users/{id}", request -> HttpResponse.text(200, "user " + request.pathParameter("id")))
                    .route("POST /small", 10, request -> HttpResponse.bytes(200, request.body()))
                    .filter((request, next) -> next.handle(request).withHeader("X-Filtered", "yes"))
                    .build();
            HttpServer server = HttpServer.start(getRunningLoop(), router.wholeRequests(), "127.0.0.1", 0, HttpServerOptions.defaults());
            TestClient client = TestClient.connect(server.port());
            client.send("GET /users/%31 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n01234567890"
                    + "POST /small HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                    + "HEAD /users/2 HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "DELETE /users/2 HTTP/1.1\r\nHost: x\r\n\r\n");
            TestClient.Received user = client.response();
            assertEquals("user 1", user.text());
            assertEquals("yes", user.header("X-Filtered"));
            TestClient.Received tooLarge = client.response("POST");
            assertEquals(413, tooLarge.status());
            assertEquals(null, tooLarge.header("Connection"), "the server read the body: the connection goes on");
            assertEquals("abc", client.response("POST").text());
            TestClient.Received head = client.response("HEAD");
            assertEquals("6", head.header("Content-Length"));
            assertEquals(0, head.body().length);
            TestClient.Received delete = client.response("DELETE");
            assertEquals(405, delete.status());
            assertEquals("GET, HEAD, OPTIONS", delete.header("Allow"));
            client.close();
            server.shutdown(5);

            Router streaming = Router.builder().streaming("GET /ws", exchange -> exchange.respond(HttpResponse.empty(204))).build();
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, streaming::wholeRequests);
            assertTrue(e.getMessage().contains("route `GET /ws` streams"), e.getMessage());
            return null;
        });
    }

    /** What a WebSocket route does: a streaming route takes the connection over with a 101, past the filters. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aStreamingRouteMayTakeTheConnectionOver(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<String> seen = new CopyOnWriteArrayList<>();
            Router router = Router.builder()
                    .filter((request, next) -> {
                        HttpResponse response = next.handle(request);
                        seen.add(request.path() + " -> " + (response == null ? "taken over" : response.status()));
                        return response;
                    })
                    .streaming("GET /shout/{room}", (request, exchange) -> {
                        StreamConnection c = exchange.takeOver(101, HttpHeaders.of("Upgrade", "shout"));
                        String room = request.pathParameter("room");
                        for (byte[] line = c.reader().readline(); line.length > 0; line = c.reader().readline()) {
                            c.writer().write((room + ": " + new String(line, StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT))
                                    .getBytes(StandardCharsets.US_ASCII));
                            c.writer().drain();
                        }
                        c.close();
                    })
                    .build();
            HttpServer server = start(router);
            TestClient client = TestClient.connect(server.port());
            client.send("GET /shout/lobby HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: shout\r\n\r\nhello\n");
            StreamReader reader = client.connection.reader();
            String head = new String(reader.readuntil("\r\n\r\n"), StandardCharsets.ISO_8859_1);
            assertTrue(head.startsWith("HTTP/1.1 101 Switching Protocols\r\n"), head);
            assertEquals("lobby: HELLO\n", new String(reader.readline(), StandardCharsets.US_ASCII));
            client.connection.writer().writeEof();
            assertEquals(0, client.readUntilEof().length);
            HttpTesting.until(() -> !seen.isEmpty());
            assertEquals(List.of("/shout/lobby -> taken over"), seen);
            client.close();
            server.shutdown(5);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aStreamingRouteGetsItsParametersAndTheExchange(String loop) {
        HttpTesting.run(loop, 20, () -> {
            Router router = Router.builder()
                    .streaming("POST /echo/{name}", (request, exchange) -> {
                        exchange.startResponse(200, HttpHeaders.of("X-Name", request.pathParameter("name")));
                        for (ByteBuffer piece = exchange.read(); piece != null; piece = exchange.read()) {
                            exchange.write(piece);
                        }
                    })
                    .build();
            HttpServer server = start(router);
            TestClient.Received r = exchange(server, "POST /echo/b%20c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", "POST");
            assertEquals(200, r.status());
            assertEquals("b c", r.header("X-Name"));
            assertEquals("abcde", r.text());
            assertTrue(r.header("Transfer-Encoding").contains("chunked"));
            server.shutdown(5);
            return null;
        });
    }
}
