package io.jasyncio.net;

import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(60)
@EveryLoop
@EveryEngine
class ManyConnectionsTest {

    /** 1,000 connections, or fewer when the descriptor limit is low (each costs two, plus slack). */
    static int connectionCount() {
        long limit = 4096;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            limit = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount();
        }
        return (int) Math.max(10, Math.min(1000, (limit - 200) / 2));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aThousandConcurrentConnections(String loopName) {
        int n = connectionCount();
        NetTesting.run(loopName, 50, () -> {
            int[] live = {0, 0}; // server-side connections open now, and the most at once
            Server server = Network.createServer(getRunningLoop(), () -> new Protocol() {
                Transport transport;

                @Override
                public void connectionMade(Transport transport) {
                    this.transport = transport;
                    live[1] = Math.max(live[1], ++live[0]);
                }

                @Override
                public void dataReceived(ByteBuffer data) {
                    transport.write(data);
                }

                @Override
                public void connectionLost(Throwable exc) {
                    live[0]--;
                }
            }, List.of("127.0.0.1"), 0, ServerOptions.defaults().withBacklog(n));
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
            assertEquals(n, open.size());
            assertEquals(n, live[1], "the server had every connection open at once");
            for (StreamConnection c : open) {
                c.writer().close();
            }
            for (StreamConnection c : open) {
                c.writer().waitClosed();
            }
            NetTesting.closeServer(server);
            assertEquals(0, live[0], "every server-side connection was lost once");
            return null;
        });
    }
}
