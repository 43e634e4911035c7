package io.jasyncio.backendtest;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.net.Server;
import io.jasyncio.net.StreamConnection;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backend outside core is found by name and does the loop's I/O: the loop calls its poller, and
 * the network layer asks it how to make each transport (it offers no proactor: readiness), and only it.
 */
class CountingBackendTest {

    @Test
    void theProviderIsFoundByNameAndIsTheDefaultLoopHere() {
        assertTrue(EventLoops.availableNames().contains("counting"), EventLoops.availableNames().toString());
        try (EventLoop loop = EventLoops.newEventLoop()) {
            assertEquals("counting", EventLoops.implementationOf(loop));
            assertInstanceOf(CountingBackend.class, LoopContract.of(loop).backendFeature(CountingBackend.class));
        }
    }

    @Test
    void anEchoOverLoopbackGoesThroughTheCountingPoller() throws Exception {
        long[] counted = run(() -> {
            CountingBackend backend = LoopContract.of(EventLoops.getRunningLoop()).backendFeature(CountingBackend.class);
            CountingPoller<?> counts = backend.poller();
            Server server = startServer((reader, writer) -> {
                writer.write(reader.readline());
                writer.close();
                writer.waitClosed();
            }, "127.0.0.1", 0);
            int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();
            StreamConnection client = openConnection("127.0.0.1", port);
            client.writer().write("ping\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("ping\n", new String(client.reader().readline(), StandardCharsets.UTF_8));
            client.writer().close();
            client.writer().waitClosed();
            server.close();
            server.waitClosed();
            toThread(() -> null); // its result comes back through callSoonThreadsafe: a wake-up
            return new long[]{counts.interestChanges.get(), counts.selects.get(), counts.eventsReported.get(),
                    counts.wakeups.get(), backend.transportsMade.get()};
        });
        assertTrue(counted[0] >= 3, "the listener, the accepted socket and the client were watched: " + counted[0]);
        assertTrue(counted[1] > 0 && counted[2] >= 3, "readiness came from it: " + counted[1] + " selects, "
                + counted[2] + " events");
        assertTrue(counted[3] > 0, "another thread woke it: " + counted[3]);
        assertEquals(2, counted[4], "the network layer asked the backend how to make both ends' transports (the client's, the accepted one)");
    }
}
