package io.jasyncio.net;

import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;
import static java.nio.charset.StandardCharsets.UTF_8;

/** The streams example shown in README.md (kept here so it compiles and runs). */
final class ReadmeExample {
    static String main() throws Exception {
        // README-BEGIN
        try (Server server = startServer((reader, writer) -> {
                 try (writer) {                                   // closes the connection at the end
                     String line = reader.readLine(UTF_8);        // suspends this task, not the thread
                     writer.writeLine(line, UTF_8);
                     writer.drain();                              // waits only if the send buffer is full
                 }
             }, "127.0.0.1", 0);
             StreamConnection c = openConnection("127.0.0.1", server.port())) {
            c.writer().writeLine("hello, world", UTF_8);
            return c.reader().readLine(UTF_8);                    // "hello, world": no line ending
        }
        // README-END
    }
}
