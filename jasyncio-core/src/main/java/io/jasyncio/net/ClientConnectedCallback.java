package io.jasyncio.net;

/** The body run (as a task) for each connection a stream server accepts. */
@FunctionalInterface
public interface ClientConnectedCallback {
    /**
     * Serves one connection, as a task of its own: {@code reader} and {@code writer} are its two
     * directions.
     */
    void handle(StreamReader reader, StreamWriter writer) throws Exception;
}
