package io.jasyncio.http.server;

import io.jasyncio.testing.ChildJvm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * examples/http-service/BookService.java, compiled and run as a program in a child JVM on each
 * loop, called by the JDK's own HTTP client: routes with path and query parameters, JSON, custom
 * headers, the error hook, both filters, the WebSocket route's push (through the JDK's WebSocket
 * client), then a SIGTERM that stops it with exit status 0.
 */
@Timeout(120)
class BookServiceExampleTest {
    private static final Path EXAMPLE = Path.of(System.getProperty("user.dir")).getParent()
            .resolve("examples/http-service/BookService.java");

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theServiceAnswersItsRoutes(String loopName) throws Exception {
        assertTrue(Files.isRegularFile(EXAMPLE), EXAMPLE + " is missing");
        try (ChildJvm service = new ChildJvm(loopName, EXAMPLE.toString(), "0");
             HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            String listening = service.awaitLine("listening on ", 60);
            String base = "http://" + listening.substring("listening on ".length());

            HttpResponse<String> all = send(client, HttpRequest.newBuilder(URI.create(base + "/books?author=Ursula+K.+Le%20Guin")));
            assertEquals(200, all.statusCode());
            assertEquals("application/json", all.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("2", all.headers().firstValue("X-Total-Count").orElseThrow());
            assertTrue(all.headers().firstValue("Server-Timing").orElseThrow().startsWith("app;dur="), all.headers().toString());
            assertTrue(all.body().startsWith("[{\"id\":1,\"title\":\"A Wizard of Earthsea\""), all.body());
            service.awaitLine("GET /books?author=Ursula+K.+Le%20Guin -> 200 in ", 10);

            HttpResponse<String> tagged = send(client, HttpRequest.newBuilder(URI.create(base + "/books?tag=sf&tag=utopia")));
            assertEquals("1", tagged.headers().firstValue("X-Total-Count").orElseThrow());

            HttpResponse<String> one = send(client, HttpRequest.newBuilder(URI.create(base + "/books/%33")));
            assertEquals("{\"id\":3,\"title\":\"Solaris\",\"author\":\"Stanisław Lem\",\"tags\":[\"sf\"]}", one.body());

            HttpResponse<String> missing = send(client, HttpRequest.newBuilder(URI.create(base + "/books/99")));
            assertEquals(404, missing.statusCode(), "the error hook maps NoSuchElementException");
            assertEquals("{\"error\":\"no book 99\"}", missing.body());

            BlockingQueue<String> pushed = new LinkedBlockingQueue<>();
            WebSocket watcher = client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(base.replace("http://", "ws://") + "/books/live"), new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                            pushed.add(data.toString());
                            ws.request(1);
                            return null;
                        }
                    }).get(10, TimeUnit.SECONDS);
            watcher.sendText("count", true).get(10, TimeUnit.SECONDS);
            assertEquals("3", pushed.poll(10, TimeUnit.SECONDS), "the WebSocket route answers \"count\"");

            HttpResponse<String> created = send(client, HttpRequest.newBuilder(URI.create(base + "/books"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("title=Kindred&author=Octavia+E.+Butler&tag=sf")));
            assertEquals(201, created.statusCode());
            assertEquals("/books/4", created.headers().firstValue("Location").orElseThrow());
            String push = pushed.poll(10, TimeUnit.SECONDS);
            assertEquals("{\"id\":4,\"title\":\"Kindred\",\"author\":\"Octavia E. Butler\",\"tags\":[\"sf\"]}", push,
                    "the new book pushed to the watcher");
            watcher.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
            HttpResponse<String> incomplete = send(client, HttpRequest.newBuilder(URI.create(base + "/books"))
                    .POST(HttpRequest.BodyPublishers.ofString("title=Untitled")));
            assertEquals(400, incomplete.statusCode());
            HttpResponse<String> tooLarge = send(client, HttpRequest.newBuilder(URI.create(base + "/books"))
                    .POST(HttpRequest.BodyPublishers.ofString("title=" + "x".repeat(5000) + "&author=a")));
            assertEquals(413, tooLarge.statusCode(), "the route's 4 KiB limit");

            HttpResponse<String> refused = send(client, HttpRequest.newBuilder(URI.create(base + "/books/4")).DELETE());
            assertEquals(401, refused.statusCode(), "the token filter");
            HttpResponse<String> deleted = send(client, HttpRequest.newBuilder(URI.create(base + "/books/4"))
                    .header("Authorization", "Bearer secret").DELETE());
            assertEquals(204, deleted.statusCode());
            assertEquals(404, send(client, HttpRequest.newBuilder(URI.create(base + "/books/4"))).statusCode());

            HttpResponse<String> wrongMethod = send(client, HttpRequest.newBuilder(URI.create(base + "/health"))
                    .POST(HttpRequest.BodyPublishers.noBody()));
            assertEquals(405, wrongMethod.statusCode());
            assertEquals("GET, HEAD, OPTIONS", wrongMethod.headers().firstValue("Allow").orElseThrow());

            service.kill("TERM");
            service.awaitLine("bye", 20);
            assertEquals(0, service.exitValue(20), service.output());
        }
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) throws Exception {
        return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
