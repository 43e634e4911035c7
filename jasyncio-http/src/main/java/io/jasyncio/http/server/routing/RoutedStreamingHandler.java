package io.jasyncio.http.server.routing;

import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.server.HttpExchange;

/**
 * A streaming route's handler: a {@link io.jasyncio.http.server.StreamingHandler} that also gets
 * the request as the router matched it, with its path parameters ({@link HttpRequest#pathParameter});
 * {@code exchange.request()} is the request as it came, without them.
 */
@FunctionalInterface
public interface RoutedStreamingHandler {
    void handle(HttpRequest request, HttpExchange exchange) throws Exception;
}
