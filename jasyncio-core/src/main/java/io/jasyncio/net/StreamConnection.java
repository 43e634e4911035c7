package io.jasyncio.net;

/**
 * What opening a stream connection yields (asyncio's {@code (reader, writer)} pair). Usable in
 * try-with-resources: {@link #close()} closes the writer, which closes the connection.
 *
 * @param reader where the connection's bytes are read
 * @param writer where bytes are written to the peer
 */
public record StreamConnection(StreamReader reader, StreamWriter writer) implements AutoCloseable {
    /** Closes the connection, as {@link StreamWriter#close()}: at once, without waiting, on the loop's thread. */
    @Override
    public void close() {
        writer.close();
    }
}
