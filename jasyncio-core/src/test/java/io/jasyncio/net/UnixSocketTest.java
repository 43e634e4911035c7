package io.jasyncio.net;

import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.jasyncio.Asyncio.openUnixConnection;
import static io.jasyncio.Asyncio.startUnixServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
@EveryLoop
@EveryEngine
class UnixSocketTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void unixSocketEcho(String loopName) {
        Path path = dir.resolve("echo-" + loopName + ".sock");
        NetTesting.run(loopName, 20, () -> {
            Server server = startUnixServer((reader, writer) -> {
                byte[] line;
                while ((line = reader.readline()).length > 0) {
                    writer.write(line);
                    writer.drain();
                }
                writer.close();
            }, path);
            assertTrue(Files.exists(path));
            for (int round = 0; round < 3; round++) {
                StreamConnection c = openUnixConnection(path);
                c.writer().write(("round " + round + "\n").getBytes());
                assertEquals("round " + round + "\n", new String(c.reader().readline()));
                c.writer().close();
                c.writer().waitClosed();
            }
            NetTesting.closeServer(server);
            assertFalse(Files.exists(path), "the socket file is removed with the server");
            return null;
        });
    }
}
