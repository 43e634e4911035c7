package io.jasyncio.net;

import io.jasyncio.task.Task;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class ManyConnectionsTest {

    static List<String> loops() {
        return NetTesting.loops();
    }

    /** 1,000 connections, or fewer when the descriptor limit is low (each costs two, plus slack). */
    static int connectionCount() {
        long limit = 4096;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            limit = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount();
        }
        return (int) Math.max(10, Math.min(1000, (limit - 200) / 2));
    }

    @ParameterizedTest
    @MethodSource("loops")
    void aThousandConcurrentConnections(String loopName) {
        int n = connectionCount();
        NetTesting.run(loopName, 50, () -> {
            Server server = Network.createServer(getRunningLoop(), NetTesting.EchoProtocol::new,
                    List.of("127.0.0.1"), 0, ServerOptions.defaults().withBacklog(n));
            int port = NetTesting.port(server);
            List<StreamConnection> open = new ArrayList<>();
            List<Task<String>> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                clients.add(createTask(() -> {
                    StreamConnection c = openConnection("127.0.0.1", port);
                    open.add(c);
                    c.writer().write(("client " + id + "\n").getBytes());
                    return new String(c.reader().readline());
                }));
            }
            for (int i = 0; i < n; i++) {
                assertEquals("client " + i + "\n", await(clients.get(i)));
            }
            assertEquals(n, open.size(), "all connections were open at once");
            for (StreamConnection c : open) {
                c.writer().close();
            }
            for (StreamConnection c : open) {
                c.writer().waitClosed();
            }
            NetTesting.closeServer(server);
            assertTrue(n >= 10);
            return null;
        });
    }
}
