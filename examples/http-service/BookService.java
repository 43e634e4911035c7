import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.PercentDecoding;
import io.jasyncio.http.server.HttpHandler;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.http.server.routing.Router;
import io.jasyncio.http.websocket.WebSocket;
import io.jasyncio.http.websocket.WebSocketClosedException;
import io.jasyncio.http.websocket.WebSocketMessage;
import io.jasyncio.http.websocket.WebSocketOptions;
import io.jasyncio.http.websocket.WebSocketServer;
import io.jasyncio.loop.Signal;
import io.jasyncio.sync.Event;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.run;

/**
 * A small HTTP service on jasyncio's router: a book list in memory, with path and query
 * parameters, JSON responses, custom headers, an error hook that maps exceptions to statuses, and
 * filters (an access log with timing, and a bearer token for changes), and a WebSocket that pushes
 * each new book to whoever watches. SIGTERM stops it gracefully.
 *
 * <pre>
 * GET    /books?author=A&amp;tag=T&amp;tag=U   the books (of that author, with all those tags), X-Total-Count
 * GET    /books/{id}                   one book, 404 (JSON) if there is none
 * POST   /books                        a form body (title, author, tag...), at most 4 KiB: 201 and Location
 * DELETE /books/{id}                   with Authorization: Bearer secret
 * GET    /health                       ok
 * GET    /books/live                   a WebSocket: each book added is pushed as JSON text; "count" asks how many
 * </pre>
 *
 * Run it from the repository root after {@code ./jasyncio build}:
 * <pre>
 * java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED \
 *     -cp jasyncio-core/target/classes:jasyncio-http/target/classes \
 *     examples/http-service/BookService.java [PORT (0: any)]
 * </pre>
 * then {@code curl -i 'http://127.0.0.1:PORT/books?author=Ursula%20K.%20Le%20Guin'}.
 */
public class BookService {
    private record Book(long id, String title, String author, List<String> tags) {
        byte[] json() {
            return ("{" + field("id", id) + "," + field("title", title) + "," + field("author", author)
                    + ",\"tags\":" + strings(tags) + "}").getBytes(StandardCharsets.UTF_8);
        }
    }

    private final Map<Long, Book> books = new TreeMap<>();
    private final Set<WebSocket> watchers = new LinkedHashSet<>();
    private long nextId = 1;

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        run(() -> new BookService().serveUntilSigterm(port));
        System.out.println("bye");
    }

    Router router() {
        return Router.builder()
                .filter(BookService::accessLog)
                .filter(BookService::tokenForChanges)
                .get("/books", this::list)
                .get("/books/{id}", request -> HttpResponse.json(200, find(request).json()))
                .route("POST /books", 4096, this::create)
                .delete("/books/{id}", request -> {
                    books.remove(find(request).id());
                    return HttpResponse.empty(204);
                })
                .get("/health", request -> HttpResponse.text(200, "ok"))
                .streaming("GET /books/live", WebSocketServer.handler(WebSocketOptions.defaults(), this::watch))
                .onError(BookService::errorResponse)
                .build();
    }

    void serveUntilSigterm(int port) throws Exception {
        add("A Wizard of Earthsea", "Ursula K. Le Guin", List.of("fantasy"));
        add("The Dispossessed", "Ursula K. Le Guin", List.of("sf", "utopia"));
        add("Solaris", "Stanisław Lem", List.of("sf"));
        Event sigterm = new Event();
        getRunningLoop().addSignalHandler(Signal.SIGTERM, sigterm::set);
        HttpServer server = HttpServer.startStreaming(getRunningLoop(), router(), "127.0.0.1", port, HttpServerOptions.defaults());
        System.out.println("listening on 127.0.0.1:" + server.port());
        sigterm.await();
        server.shutdown(5);
    }

    private HttpResponse list(HttpRequest request) {
        String author = request.queryParameter("author");
        List<String> tags = request.queryParameters("tag");
        List<String> found = new ArrayList<>();
        for (Book book : books.values()) {
            if ((author == null || book.author().equals(author)) && book.tags().containsAll(tags)) {
                found.add(new String(book.json(), StandardCharsets.UTF_8));
            }
        }
        return HttpResponse.json(200, ("[" + String.join(",", found) + "]").getBytes(StandardCharsets.UTF_8))
                .withHeader("X-Total-Count", String.valueOf(found.size()));
    }

    private HttpResponse create(HttpRequest request) {
        Map<String, List<String>> form = PercentDecoding.parameters(request.bodyText());
        List<String> title = form.get("title");
        List<String> author = form.get("author");
        if (title == null || author == null) {
            throw new IllegalArgumentException("a book needs a title and an author");
        }
        Book book = add(title.getFirst(), author.getFirst(), form.getOrDefault("tag", List.of()));
        String pushed = new String(book.json(), StandardCharsets.UTF_8);
        for (WebSocket watcher : List.copyOf(watchers)) {
            try {
                watcher.send(pushed);                    // awaits while that watcher is not reading
            } catch (WebSocketClosedException gone) {
                // that watcher left meanwhile; its session removes it
            }
        }
        return HttpResponse.json(201, book.json()).withHeader("Location", "/books/" + book.id());
    }

    /** The WebSocket route's session: watches until the client closes; "count" is answered. */
    private void watch(WebSocket ws) throws Exception {
        watchers.add(ws);
        try {
            for (WebSocketMessage message : ws.messages()) {   // ends when the client closes
                if (message.isText() && message.text().equals("count")) {
                    ws.send(String.valueOf(books.size()));
                }
            }
        } finally {
            watchers.remove(ws);
        }
    }

    private Book add(String title, String author, List<String> tags) {
        Book book = new Book(nextId++, title, author, List.copyOf(tags));
        books.put(book.id(), book);
        return book;
    }

    private Book find(HttpRequest request) {
        String id = request.pathParameter("id");
        try {
            Book book = books.get(Long.parseLong(id));
            if (book != null) {
                return book;
            }
        } catch (NumberFormatException notANumber) {
            // no such book either
        }
        throw new NoSuchElementException("no book " + id);
    }

    /** The error hook: what a handler throws, as the client should see it. */
    private static HttpResponse errorResponse(HttpRequest request, Exception error) {
        if (error instanceof NoSuchElementException) {
            return HttpResponse.json(404, ("{" + field("error", error.getMessage()) + "}").getBytes(StandardCharsets.UTF_8));
        }
        if (error instanceof IllegalArgumentException) {
            return HttpResponse.json(400, ("{" + field("error", error.getMessage()) + "}").getBytes(StandardCharsets.UTF_8));
        }
        return Router.logAndAnswer500(request, error);
    }

    /** A filter: one line per request, with its status and time, and the time as a header. */
    private static HttpResponse accessLog(HttpRequest request, HttpHandler next) throws Exception {
        long start = System.nanoTime();
        HttpResponse response = next.handle(request);   // null: a streaming route answered on its own
        double millis = (System.nanoTime() - start) / 1e6;
        System.out.printf("%s %s -> %s in %.3f ms%n", request.method(), request.target(),
                response == null ? "streamed" : response.status(), millis);
        return response == null ? null : response.withHeader("Server-Timing", String.format("app;dur=%.3f", millis));
    }

    /** A filter: changes need the bearer token; reads pass. */
    private static HttpResponse tokenForChanges(HttpRequest request, HttpHandler next) throws Exception {
        boolean change = request.method().equals("DELETE");
        if (change && !"Bearer secret".equals(request.header("Authorization"))) {
            return HttpResponse.text(401, "a change needs a token").withHeader("WWW-Authenticate", "Bearer");
        }
        return next.handle(request);
    }

    private static String field(String name, Object value) {
        return quote(name) + ":" + (value instanceof String s ? quote(s) : value);
    }

    private static String strings(List<String> values) {
        return "[" + String.join(",", values.stream().map(BookService::quote).toList()) + "]";
    }

    /** A JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped. */
    private static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
