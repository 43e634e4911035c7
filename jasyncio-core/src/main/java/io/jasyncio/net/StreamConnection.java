package io.jasyncio.net;

/** What opening a stream connection yields (asyncio's {@code (reader, writer)} pair). */
public record StreamConnection(StreamReader reader, StreamWriter writer) {
}
