package io.jasyncio.http.server.routing;

import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.server.HttpHandler;

/**
 * Code around every request a {@link Router} answers (an access log, timing, authentication): it
 * passes the request on with {@code next.handle(request)} and may look at or replace the response,
 * or answers without calling {@code next} (a 401). Filters run in the order they were added, the
 * first outermost, before the request's body is read (so an unauthenticated upload is refused
 * unread). They see every answer, 404 and 405 included, and the response the error handler made
 * of a handler's exception. For a streaming route, {@code next} returns null once the route has
 * written its own response to the exchange.
 */
@FunctionalInterface
public interface Filter {
    HttpResponse filter(HttpRequest request, HttpHandler next) throws Exception;
}
