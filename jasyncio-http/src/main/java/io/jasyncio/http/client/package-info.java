/**
 * The HTTP/1.1 client: {@link io.jasyncio.http.client.HttpClient} on one loop, with a keep-alive
 * connection pool per origin, timeouts, streaming request and response bodies under the
 * transport's flow control, TLS through {@link io.jasyncio.net.TlsOptions}, and
 * {@code CompletableFuture}s for plain threads. Each connection is a protocol on the loop's
 * transport that parses responses with {@link io.jasyncio.http.HttpParser}.
 */
package io.jasyncio.http.client;
