package io.jasyncio.http.server;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.client.HttpClient;
import io.jasyncio.http.client.HttpClientOptions;
import io.jasyncio.http.client.HttpClientResponse;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handler whose client has gone is cancelled, and what it holds is released: here a pooled
 * connection of a real {@link HttpClient} to an upstream that never answers. Without the
 * cancellation the abandoned requests hold every pooled connection, and the next request to that
 * upstream can never be served.
 */
@EveryEngine
class HandlerCancellationTest {
    private static final int POOL = 2;

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void anAbandonedHandlerIsCancelledAndReleasesItsPooledUpstreamConnection(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<String> upstreamHeard = new ArrayList<>();
            HttpServer upstream = HttpServer.start(getRunningLoop(), request -> {
                if (request.path().equals("/ok")) {
                    return HttpResponse.text(200, "upstream ok");
                }
                upstreamHeard.add(request.path());
                Future<Void> never = getRunningLoop().createFuture();
                Asyncio.await(never); // never answers
                return null;
            }, "127.0.0.1", 0, HttpServerOptions.defaults());
            String upstreamUrl = "http://127.0.0.1:" + upstream.port();
            List<String> cancelled = new ArrayList<>();
            try (HttpClient client = HttpClient.create(getRunningLoop(),
                    HttpClientOptions.defaults().withMaxConnectionsPerOrigin(POOL))) {
                HttpServer front = HttpServer.start(getRunningLoop(), request -> {
                    try (HttpClientResponse r = client.get(upstreamUrl + request.target())) {
                        return HttpResponse.text(200, r.body().text());
                    } catch (CancelledError e) {
                        cancelled.add(request.target());
                        throw e;
                    }
                }, "127.0.0.1", 0, HttpServerOptions.defaults());
                List<TestClient> callers = new ArrayList<>();
                for (int i = 0; i < POOL; i++) {
                    TestClient c = TestClient.connect(front.port());
                    c.send("GET /hang/" + i + " HTTP/1.1\r\nHost: x\r\n\r\n");
                    callers.add(c);
                }
                HttpTesting.within(5, () -> upstreamHeard.size() == POOL, () -> "upstream heard " + upstreamHeard);
                assertEquals(POOL, client.openConnections(upstreamUrl), "every pooled connection is held");
                double left = getRunningLoop().time();
                callers.forEach(TestClient::close); // the callers give up
                HttpTesting.within(3, () -> cancelled.size() == POOL && client.openConnections(upstreamUrl) == 0,
                        () -> cancelled + " cancelled, " + client.openConnections(upstreamUrl) + " upstream connections open");
                assertTrue(getRunningLoop().time() - left < 3);
                // the pool serves the next request
                TestClient next = TestClient.connect(front.port());
                next.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals("upstream ok", next.response().text());
                next.close();
                front.close();
            }
            upstream.close();
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void withCancellationOffAHandlerCanAskWhetherItsClientIsThere(String loop) {
        HttpTesting.run(loop, 20, () -> {
            List<Boolean> seen = new ArrayList<>();
            Future<Void> clientLeft = getRunningLoop().createFuture();
            HttpServer server = HttpServer.startStreaming(getRunningLoop(), exchange -> {
                seen.add(exchange.clientConnected());
                Asyncio.await(clientLeft); // not cancelled: the option is off
                HttpTesting.until(() -> !exchange.clientConnected());
                seen.add(exchange.clientConnected());
                exchange.respond(HttpResponse.text(200, "nobody reads this"));
            }, "127.0.0.1", 0, HttpServerOptions.defaults().withHandlerCancellation(false));
            TestClient c = TestClient.connect(server.port());
            c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            HttpTesting.within(5, () -> seen.size() == 1, () -> "seen " + seen);
            c.close();
            clientLeft.setResult(null);
            HttpTesting.within(5, () -> seen.size() == 2, () -> "seen " + seen);
            assertTrue(seen.get(0), "there while it sends");
            assertFalse(seen.get(1), "gone once it closed");
            server.close();
            return null;
        });
    }
}
