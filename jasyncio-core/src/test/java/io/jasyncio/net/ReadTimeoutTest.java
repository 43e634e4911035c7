package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import io.jasyncio.sync.Event;
import io.jasyncio.task.TimeoutException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;


import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** StreamReader.setReadTimeout: a read that waits too long fails, with one timer per connection, not one per read. */
@Timeout(30)
@EveryLoop
@EveryEngine
class ReadTimeoutTest {
    private static final int READS = 500;


    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void manyReadsShareOneTimer(String loopName) {
        NetTesting.run(loopName, 25, () -> {
            EventLoop loop = getRunningLoop();
            // answers each request line with one line: every client read waits for the network
            try (Server server = startServer((reader, writer) -> {
                     try (writer) {
                         String line;
                         while ((line = reader.readLine(UTF_8)) != null) {
                             writer.writeLine("re: " + line, UTF_8);
                         }
                     }
                 }, "127.0.0.1", 0);
                 StreamConnection c = openConnection("127.0.0.1", server.port())) {
                c.reader().setReadTimeout(60);
                long timersBefore = loop.timersScheduledTotal();
                for (int i = 0; i < READS; i++) {
                    c.writer().writeLine("n" + i, UTF_8);
                    assertEquals("re: n" + i, c.reader().readLine(UTF_8));
                }
                long timers = loop.timersScheduledTotal() - timersBefore;
                assertTrue(timers <= 2, READS + " reads that each waited scheduled " + timers
                        + " timers: the read timeout must re-arm one deadline, not start a timer per read");
            }
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aReadThatWaitsTooLongFailsAndTheConnectionGoesOn(String loopName) {
        NetTesting.run(loopName, 25, () -> {
            Event release = new Event();
            try (Server server = startServer((reader, writer) -> {
                     try (writer) {
                         release.await();       // silent until the client has timed out once
                         writer.writeLine("late", UTF_8);
                         reader.read(-1);
                     }
                 }, "127.0.0.1", 0);
                 StreamConnection c = openConnection("127.0.0.1", server.port())) {
                c.reader().setReadTimeout(0.2);
                assertEquals(0.2, c.reader().readTimeout(), 1e-9);
                TimeoutException e = assertThrows(TimeoutException.class, () -> c.reader().readLine(UTF_8));
                assertTrue(e.getMessage().contains("no bytes came for 0.2 s"), e.getMessage());
                release.set();
                assertEquals("late", c.reader().readLine(UTF_8), "the timeout failed one read, not the connection");
                c.reader().setReadTimeout(0);
                assertEquals(0, c.reader().readTimeout());
            }
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aNegativeOrEndlessTimeoutIsRefused(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            StreamReader r = new StreamReader(getRunningLoop());
            assertThrows(IllegalArgumentException.class, () -> r.setReadTimeout(-1));
            assertThrows(IllegalArgumentException.class, () -> r.setReadTimeout(Double.NaN));
            assertThrows(IllegalArgumentException.class, () -> r.setReadTimeout(Double.POSITIVE_INFINITY));
            return null;
        });
    }
}
