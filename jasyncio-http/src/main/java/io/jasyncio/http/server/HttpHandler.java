package io.jasyncio.http.server;

import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.HttpResponse;

/**
 * A coroutine that answers a whole request (its body read to the end first) with a whole
 * response. It runs as a task on the connection's loop and may await; what it throws becomes a
 * 500. Returning one {@link HttpResponse} for many requests is the cheapest: its head is encoded once.
 */
@FunctionalInterface
public interface HttpHandler {
    HttpResponse handle(HttpRequest request) throws Exception;
}
