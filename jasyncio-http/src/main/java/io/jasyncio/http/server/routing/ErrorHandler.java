package io.jasyncio.http.server.routing;

import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;

/**
 * Turns what a route's handler or a filter threw into the response the client gets (a 404 for
 * your {@code NoSuchElementException}, a 504 for an upstream's timeout...). The default logs the
 * exception through the loop's exception handler, as the server does, and answers 500.
 */
@FunctionalInterface
public interface ErrorHandler {
    HttpResponse handle(HttpRequest request, Exception error) throws Exception;
}
