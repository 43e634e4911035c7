package io.jasyncio.net;

/** The body run (as a task) for each connection a stream server accepts. */
@FunctionalInterface
public interface ClientConnectedCallback {
    void handle(StreamReader reader, StreamWriter writer) throws Exception;
}
