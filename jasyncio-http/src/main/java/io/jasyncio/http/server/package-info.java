/**
 * An HTTP/1.1 server on the transport/protocol API: keep-alive, pipelining, chunked bodies both
 * ways, 100-continue, limits, timeouts and graceful shutdown, with handlers as coroutines.
 */
package io.jasyncio.http.server;
