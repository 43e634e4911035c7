package io.jasyncio.net;

import java.net.InetSocketAddress;

import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;

/** The streams example shown in README.md (kept here so it compiles and runs). */
final class ReadmeExample {
    static String main() throws Exception {
        // README-BEGIN
        Server server = startServer((reader, writer) -> {
            byte[] line = reader.readline();          // suspends this task, not the thread
            writer.write(line);
            writer.drain();                           // waits only if the send buffer is full
            writer.close();
            writer.waitClosed();
        }, "127.0.0.1", 0);
        int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();

        StreamConnection c = openConnection("127.0.0.1", port);
        c.writer().write("hello, world\n".getBytes());
        String echoed = new String(c.reader().readline());
        c.writer().close();
        c.writer().waitClosed();
        server.close();
        server.waitClosed();
        // README-END
        return echoed;
    }
}
