package io.jasyncio.http.server;

/**
 * A coroutine that reads the request body as it arrives and writes the response in parts, through
 * its {@link HttpExchange}. It runs as a task on the connection's loop as soon as the request
 * head is in; its reads and writes wait on the connection's flow control. When it returns, the
 * server ends a response it began and did not end, and answers 500 if it began none; what it
 * throws becomes a 500 if no response began, else the connection is aborted.
 */
@FunctionalInterface
public interface StreamingHandler {
    void handle(HttpExchange exchange) throws Exception;
}
