package io.jasyncio.net;

import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A loop whose connections each have a small write in flight at once (the io_uring loop copies
 * every small write into a direct chunk of its write queue until the kernel reports it sent)
 * reuses those chunks turn after turn: the 1 KiB echo at 100 connections allocated and zeroed a
 * 64 KiB chunk per write once more than 64 were in flight (now a 1 KiB write takes a 4 KiB
 * chunk: {@code SmallWriteMemoryTest}). The readiness loops write small writes to the socket at
 * once and take no chunk.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class WriteChunkReuseTest {

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aWriteOnEveryConnectionAtOnceReusesTheChunksOfTheTurnBefore(String loopName) {
        int connections = DirectChunks.KEPT + 36;
        int turns = 8;
        NetTesting.run(loopName, 50, () -> {
            Connected connected = Connected.open(connections);
            List<Transport> served = connected.served();
            List<StreamConnection> clients = connected.clients();
            DirectChunks.Sizes chunks = DirectChunks.sizesOf(getRunningLoop());
            byte[] message = new byte[1024];
            for (int turn = 0; turn < turns; turn++) {
                for (Transport transport : served) { // one task step: no send completes meanwhile
                    transport.write(message);
                }
                for (StreamConnection client : clients) {
                    assertEquals(message.length, client.reader().readexactly(message.length).length);
                }
                for (int i = 0; i < 1000 && served.stream().anyMatch(t -> t.getWriteBufferSize() > 0); i++) {
                    sleep(0.001); // the sends' completions given their chunks back
                }
                assertTrue(served.stream().allMatch(t -> t.getWriteBufferSize() == 0), "every write was reported sent");
            }
            assertTrue(chunks.allocatedBytes() <= connections * DirectChunks.Sizes.SMALL,
                    chunks.allocatedBytes() + " bytes of chunks allocated for " + connections + " 1 KiB writes in flight at once");
            connected.close();
            return null;
        });
    }

    /** {@code n} connections to a server on the running loop: the server's transports and the clients. */
    record Connected(Server server, List<Transport> served, List<StreamConnection> clients) {
        static Connected open(int n) throws java.io.IOException {
            List<Transport> served = new ArrayList<>();
            Server server = Network.createServer(getRunningLoop(), () -> new Protocol() {
                @Override
                public void connectionMade(Transport transport) {
                    served.add(transport);
                }
            }, List.of("127.0.0.1"), 0, ServerOptions.defaults().withBacklog(n));
            List<StreamConnection> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                clients.add(openConnection("127.0.0.1", NetTesting.port(server)));
            }
            for (int i = 0; i < 2000 && served.size() < n; i++) {
                sleep(0.001);
            }
            assertEquals(n, served.size(), "every connection was accepted");
            return new Connected(server, served, clients);
        }

        void close() {
            for (StreamConnection client : clients) {
                client.writer().close();
            }
            NetTesting.closeServer(server);
        }
    }
}
