/**
 * Routing for the HTTP server: a {@link io.jasyncio.http.server.routing.Router} sends each request
 * to the handler whose pattern ({@code GET /users/{id}}, {@code /static/{path...}}) matches it
 * best, with 404, 405 with {@code Allow}, {@code HEAD} from {@code GET}, {@code OPTIONS}, per-route
 * body limits, filters and an error hook. A router is a streaming handler: start the server with
 * {@link io.jasyncio.http.server.HttpServer#startStreaming}, or, when no route streams, with
 * {@link io.jasyncio.http.server.HttpServer#start} and {@code router.wholeRequests()}.
 */
package io.jasyncio.http.server.routing;
