package io.jasyncio.http.server.routing;

import io.jasyncio.Asyncio;
import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpExchange;
import io.jasyncio.http.server.HttpHandler;
import io.jasyncio.http.server.StreamingHandler;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Sends each request to the handler of the route that matches it best, Go 1.22 ServeMux style:
 * <pre>{@code
 * Router router = Router.builder()
 *         .get("/users/{id}", request -> HttpResponse.text(200, "user " + request.pathParameter("id")))
 *         .route("POST /uploads", 1 << 20, request -> HttpResponse.empty(201))   // at most 1 MiB
 *         .get("/static/{path...}", request -> files(request.pathParameter("path")))
 *         .build();
 * HttpServer.startStreaming(loop, router, "127.0.0.1", 8080, HttpServerOptions.defaults());
 * }</pre>
 * <ul>
 * <li>A pattern is {@code [METHOD ]/path}: literal segments, {@code {name}} for one non-empty
 *     segment, and last, {@code {name...}} for the rest (one segment or more). Segments are compared
 *     percent-decoded ({@code /users/%31} is {@code /users/1}), and a parameter's value is decoded
 *     ({@code %2F} inside a segment is a {@code /} of the value, not a separator). A pattern matches
 *     the whole path: {@code /a} is not {@code /a/}. The path is not cleaned: {@code .} and
 *     {@code ..} are segments like others, so never use a parameter as a file name unchecked.</li>
 * <li>When several routes match, the most specific wins: segment by segment a literal over a
 *     parameter over a rest, and a method over none ({@code HEAD} over {@code GET} over none).
 *     Two routes that match a common request with neither more specific (the same pattern twice,
 *     {@code GET /a/{x}} and {@code GET /a/{y}}, or {@code /a/{x}} and {@code /{y}/b}) are refused by
 *     {@link Builder#build()}, with both patterns and a request they share in the message.</li>
 * <li>No route for the path: 404. Routes for the path but not the method: 405 with {@code Allow}.
 *     {@code HEAD} runs the {@code GET} route (the server sends the head alone, its Content-Length
 *     that of the body). {@code OPTIONS} without a route of its own: 204 with {@code Allow}.</li>
 * <li>A whole-request route's body is read, after the filters, up to its limit (413 above it, at
 *     once if its Content-Length says so; under {@link #wholeRequests()} the server has read it
 *     already, within its own limit); a streaming route reads its own and is refused at once only
 *     if its Content-Length is above its limit.</li>
 * <li>What a handler or filter throws goes to the {@link ErrorHandler} (by default: the loop's
 *     exception handler logs it, and 500), but for what a streaming route throws once its response
 *     began or as an {@code IOException} (the body's own failure looks the same): that goes to the
 *     server, as from any streaming handler. {@link Filter}s run around every answer, in order.</li>
 * </ul>
 * A router is a {@link StreamingHandler} (so a route may stream, or take the connection over as a
 * WebSocket does): start the server with {@code startStreaming}. A router of whole-request routes
 * only may also run as a whole-request handler, {@code HttpServer.start(loop, router.wholeRequests(), ...)}:
 * the server then reads each body whole first, which costs less per request than the streaming
 * mode's body queue. Immutable; one router may serve many loops.
 */
public final class Router implements StreamingHandler {
    private static final HttpResponse NOT_FOUND = HttpResponse.text(404, "Not Found");
    /** A body read whole by the server, above the route's limit. */
    private static final HttpResponse TOO_LARGE = HttpResponse.text(413, "Content Too Large");
    /** With Connection: close, as the server closes a connection whose request body was not read to its end. */
    private static final HttpResponse TOO_LARGE_UNREAD = TOO_LARGE.withHeader("Connection", "close");

    private final RouteTree tree;
    private final Filter[] filters;
    private final ErrorHandler errorHandler;
    /** {@code Allow} for {@code OPTIONS *}: every method of every route. */
    private final String allMethods;
    /** The first streaming route's pattern, or null when every route takes whole requests. */
    private final String streamingRoute;

    private Router(RouteTree tree, Filter[] filters, ErrorHandler errorHandler, String allMethods, String streamingRoute) {
        this.tree = tree;
        this.filters = filters;
        this.errorHandler = errorHandler;
        this.allMethods = allMethods;
        this.streamingRoute = streamingRoute;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The default {@link ErrorHandler}: the running loop's exception handler logs {@code error}; 500. */
    public static HttpResponse logAndAnswer500(HttpRequest request, Exception error) {
        Map<String, Object> context = new HashMap<>();
        context.put("message", "HTTP route handler failed on " + request.method() + " " + request.target());
        context.put("exception", error);
        Asyncio.getRunningLoop().callExceptionHandler(context);
        return HttpResponse.text(500, "Internal Server Error");
    }

    /**
     * The pattern of the route that would answer {@code method target} (as {@code "GET /users/{id}"}
     * was given), or null when the router would answer itself (404, 405, OPTIONS), as Go's
     * {@code ServeMux.Handler} tells; for logs, tests and tools.
     */
    public String patternFor(String method, String target) {
        String path = routedPath(target);
        Route route = path == null ? null : tree.find(method, path, 0, pathEnd(path));
        return route == null ? null : route.pattern.text;
    }

    /**
     * This router as a whole-request handler, for {@link io.jasyncio.http.server.HttpServer#start}:
     * the server reads each body whole before the router runs (within the server's body limit; a
     * route's lower limit then answers 413 once the body is in), and saves the streaming mode's
     * per-request cost (the body's queue). Throws {@link IllegalStateException} if a route
     * streams (it needs {@code startStreaming}), so the mistake shows when the server starts.
     */
    public HttpHandler wholeRequests() {
        if (streamingRoute != null) {
            throw new IllegalStateException("route `" + streamingRoute + "` streams: serve this router with "
                    + "HttpServer.startStreaming, not as a whole-request handler");
        }
        return request -> route(request, null);
    }

    @Override
    public void handle(HttpExchange exchange) throws Exception {
        HttpResponse response = route(exchange.request(), exchange);
        if (response != null && !exchange.responseStarted()) {
            exchange.respond(response);
        }
    }

    /**
     * The answer to {@code request}: from its route inside the filters, or the router's own. With
     * {@code exchange} (a streaming server) a route reads the body, or streams; without, the
     * request carries its body whole.
     */
    private HttpResponse route(HttpRequest request, HttpExchange exchange) throws Exception {
        String path = routedPath(request.target());
        int to = path == null ? -1 : pathEnd(path);
        Route route = path == null ? null : tree.find(request.method(), path, 0, to);
        HttpRequest routed = route == null ? request : route.withParameters(request, path, 0, to);
        HttpResponse response;
        if (filters.length == 0) {
            response = answer(route, routed, exchange, path, to);
        } else {
            Chain chain = new Chain(exchange, route, path, to, 0, null);
            try {
                response = chain.handle(routed);
            } catch (Exception e) {
                if (e == chain.passedThrough || exchange != null && exchange.responseStarted()) {
                    throw e; // the body failed, or the error handler did: the server's to answer
                }
                response = errorHandler.handle(routed, e); // a filter's own
            }
            if (exchange != null && !chain.answered && response != null && hasBody(request)) {
                response = closing(response); // a filter answered: the body stays unread
            }
        }
        return response;
    }

    /**
     * Runs the route (or answers 404, 405, OPTIONS) inside the filters: what the last filter's
     * {@code next} does. What it throws is the server's to answer: the request body's failure
     * (the server has answered or dropped the request), or the error handler's own exception.
     */
    private HttpResponse answer(Route route, HttpRequest request, HttpExchange exchange, String path, int to) throws Exception {
        if (route == null) {
            HttpResponse response = noRoute(request, path, to);
            return exchange != null && hasBody(request) ? closing(response) : response;
        }
        if (exchange != null && route.maxBodySize >= 0 && announcedLength(request) > route.maxBodySize) {
            return TOO_LARGE_UNREAD;
        }
        if (route.streaming != null) {
            try {
                route.streaming.handle(request, exchange);
                return null;
            } catch (Exception e) {
                if (exchange.responseStarted() || e instanceof IOException) {
                    throw e; // too late to answer, or maybe the body's failure: the server's to handle
                }
                return errorHandler.handle(request, e);
            }
        }
        HttpRequest whole = request;
        if (exchange == null) {
            if (route.maxBodySize >= 0 && request.body().length > route.maxBodySize) {
                return TOO_LARGE;
            }
        } else {
            byte[] body = exchange.readAll(route.maxBodySize);
            if (body == null) {
                return TOO_LARGE_UNREAD;
            }
            whole = body.length == 0 ? request : request.withBody(body);
        }
        HttpResponse response;
        try {
            response = route.whole.handle(whole);
        } catch (Exception e) {
            return errorHandler.handle(request, e);
        }
        return response != null ? response
                : errorHandler.handle(request, new IllegalStateException("route `" + route + "` returned no response"));
    }

    private HttpResponse noRoute(HttpRequest request, String path, int to) {
        boolean options = request.method().equals("OPTIONS");
        if (path == null) {
            return options && request.target().equals("*") ? HttpResponse.empty(204).withHeader("Allow", allMethods) : NOT_FOUND;
        }
        Set<String> methods = new TreeSet<>();
        tree.collectMethods(path, 0, to, methods);
        if (methods.isEmpty()) {
            return NOT_FOUND;
        }
        String allow = allowHeader(methods);
        return options ? HttpResponse.empty(204).withHeader("Allow", allow)
                : HttpResponse.text(405, "Method Not Allowed").withHeader("Allow", allow);
    }

    /**
     * Whether the request has a body (RFC 9112 §6.3). An answer given without reading it says
     * Connection: close, since the server closes the connection after it (a client that did not
     * expect that would send its next request into a closed connection).
     */
    private static boolean hasBody(HttpRequest request) {
        String length = request.header("Content-Length");
        return length != null ? !length.equals("0") : request.header("Transfer-Encoding") != null;
    }

    private static HttpResponse closing(HttpResponse response) {
        return response.withHeader("Connection", "close");
    }

    /** {@code methods} as an {@code Allow} value: with HEAD beside GET, and OPTIONS, which the router answers. */
    private static String allowHeader(Set<String> methods) {
        Set<String> all = new TreeSet<>(methods);
        all.remove("*");
        if (all.contains("GET")) {
            all.add("HEAD");
        }
        all.add("OPTIONS");
        return String.join(", ", all);
    }

    private static long announcedLength(HttpRequest request) {
        String length = request.header("Content-Length");
        return length == null ? -1 : Long.parseLong(length); // the parser checked its syntax
    }

    /**
     * What is routed of {@code target}: an origin-form target itself ({@code /path?query}), an
     * absolute-form one from its path on ({@code /} when it has none, RFC 9112 §3.2.2); null for
     * the authority-form (CONNECT) and asterisk-form ({@code *}), which no route matches.
     */
    private static String routedPath(String target) {
        if (target.startsWith("/")) {
            return target;
        }
        int scheme = target.indexOf("://");
        if (scheme < 0) {
            return null;
        }
        int slash = target.indexOf('/', scheme + 3);
        int query = target.indexOf('?', scheme + 3);
        if (slash < 0 || (query >= 0 && query < slash)) {
            return query < 0 ? "/" : "/" + target.substring(query);
        }
        return target.substring(slash);
    }

    /** Where the path of {@code path?query} ends. */
    private static int pathEnd(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path.length() : q;
    }

    /** The filters from {@code index} on, then the route: the {@code next} a filter is given. */
    private final class Chain implements HttpHandler {
        private final HttpExchange exchange;
        private final Route route;
        private final String path;
        private final int to;
        private final int index;
        /** The first link, which the others tell what {@link #answer} threw. */
        private final Chain first;
        /** In the first link: what {@link #answer} threw through the filters (not a filter's own failure). */
        private Exception passedThrough;
        /** In the first link: whether the filters let the request through to {@link #answer}. */
        private boolean answered;

        Chain(HttpExchange exchange, Route route, String path, int to, int index, Chain first) {
            this.exchange = exchange;
            this.route = route;
            this.path = path;
            this.to = to;
            this.index = index;
            this.first = first == null ? this : first;
        }

        @Override
        public HttpResponse handle(HttpRequest request) throws Exception {
            if (index < filters.length) {
                return filters[index].filter(request, new Chain(exchange, route, path, to, index + 1, first));
            }
            first.answered = true;
            try {
                return answer(route, request, exchange, path, to);
            } catch (Exception e) {
                first.passedThrough = e;
                throw e;
            }
        }
    }

    /** Routes, filters and an error handler, checked and compiled into a {@link Router} by {@link #build()}. */
    public static final class Builder {
        private final List<Route> routes = new ArrayList<>();
        private final List<Filter> filters = new ArrayList<>();
        private ErrorHandler errorHandler = Router::logAndAnswer500;
        private long defaultMaxBodySize = -1;

        private Builder() {
        }

        /** A route: {@code pattern} ({@code "GET /users/{id}"}; no method for every method) to {@code handler}. */
        public Builder route(String pattern, HttpHandler handler) {
            return route(pattern, defaultMaxBodySize, handler);
        }

        /** A route that takes a body of at most {@code maxBodySize} bytes (413 above). */
        public Builder route(String pattern, long maxBodySize, HttpHandler handler) {
            routes.add(new Route(RoutePattern.parse(pattern), Objects.requireNonNull(handler, "handler"), null, maxBodySize));
            return this;
        }

        /** {@code route("GET " + path, handler)}: serves HEAD too. */
        public Builder get(String path, HttpHandler handler) {
            return route("GET " + path, handler);
        }

        public Builder post(String path, HttpHandler handler) {
            return route("POST " + path, handler);
        }

        public Builder put(String path, HttpHandler handler) {
            return route("PUT " + path, handler);
        }

        public Builder delete(String path, HttpHandler handler) {
            return route("DELETE " + path, handler);
        }

        /** A streaming route: its handler reads the body and writes the response through the exchange (or takes it over). */
        public Builder streaming(String pattern, StreamingHandler handler) {
            Objects.requireNonNull(handler, "handler");
            return streaming(pattern, (request, exchange) -> handler.handle(exchange));
        }

        /** A streaming route whose handler also gets the request with its path parameters. */
        public Builder streaming(String pattern, RoutedStreamingHandler handler) {
            return streaming(pattern, defaultMaxBodySize, handler);
        }

        /** A streaming route refused at once (413) when its Content-Length passes {@code maxBodySize}. */
        public Builder streaming(String pattern, long maxBodySize, RoutedStreamingHandler handler) {
            routes.add(new Route(RoutePattern.parse(pattern), null, Objects.requireNonNull(handler, "handler"), maxBodySize));
            return this;
        }

        /** Adds a filter inside those added before it (the first added runs first). */
        public Builder filter(Filter filter) {
            filters.add(Objects.requireNonNull(filter, "filter"));
            return this;
        }

        /** What a handler's or filter's exception becomes (by default {@link #logAndAnswer500}). */
        public Builder onError(ErrorHandler handler) {
            errorHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /** The body limit of the routes added after this without one of their own ({@code -1}: the server's alone). */
        public Builder maxBodySize(long bytes) {
            if (bytes < -1) {
                throw new IllegalArgumentException("body limit " + bytes);
            }
            defaultMaxBodySize = bytes;
            return this;
        }

        /**
         * The router. Throws {@link IllegalArgumentException} naming two routes that conflict:
         * both match some request and neither is more specific.
         */
        public Router build() {
            RouteTree tree = new RouteTree();
            Set<String> methods = new TreeSet<>();
            for (int i = 0; i < routes.size(); i++) {
                RoutePattern p = routes.get(i).pattern;
                for (int j = 0; j < i; j++) {
                    RoutePattern earlier = routes.get(j).pattern;
                    RoutePattern.Relation relation = p.relationTo(earlier);
                    if (relation == RoutePattern.Relation.EQUAL || relation == RoutePattern.Relation.OVERLAPPING) {
                        throw new IllegalArgumentException("routes `" + earlier + "` and `" + p + "` conflict: both match "
                                + p.commonExample(earlier) + (relation == RoutePattern.Relation.EQUAL
                                ? " and every request either matches" : " and neither is more specific"));
                    }
                }
                tree.add(routes.get(i));
                if (p.method != null) {
                    methods.add(p.method);
                }
            }
            String streaming = routes.stream().filter(r -> r.streaming != null).map(Route::toString).findFirst().orElse(null);
            return new Router(tree, filters.toArray(Filter[]::new), errorHandler, allowHeader(methods), streaming);
        }
    }
}
