package io.jasyncio.junit;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.VirtualClock;
import io.jasyncio.net.Server;
import io.jasyncio.net.StreamConnection;
import io.jasyncio.sync.Queue;
import io.jasyncio.task.Task;
import io.jasyncio.task.TaskGroup;
import io.jasyncio.task.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.Asyncio.timeout;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code @AsyncTest(virtualTime = true)}: hours of timers in real milliseconds. Each test's
 * timeout (10 s of real time) is the proof that the virtual hours took no real time.
 */
@Timeout(30)
class VirtualTimeTest {
    private double setUpAt = -1;

    @BeforeEach
    void setUp(EventLoop loop) {
        sleep(60); // fixtures run on the same virtual clock
        setUpAt = loop.time();
    }

    /** The README's example: the server comes up after 45 minutes; the client's attempts, to the second. */
    @AsyncTest(virtualTime = true)
    void aClientWithBackoffReconnectsWhenTheServerComesUp(EventLoop loop) throws Exception {
        double start = loop.time();
        int port = freePort();
        Task<Server> server = createTask(() -> {
            sleep(45 * 60);
            return startServer((reader, writer) -> {
                writer.write(reader.readline());
                writer.close();
            }, "127.0.0.1", port);
        });
        BackoffClient client = new BackoffClient();
        StreamConnection connection = timeout(3600, () -> client.connect("127.0.0.1", port));
        assertEquals(List.of(0.0, 1.0, 3.0, 7.0, 15.0, 31.0, 63.0, 127.0, 255.0, 511.0, 1023.0, 1623.0, 2223.0, 2823.0),
                sinceStart(client.attempts(), start));

        connection.writer().write("hello\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("hello\n", new String(connection.reader().readline(), StandardCharsets.UTF_8));
        connection.writer().close();
        await(server).close();
        await(server).waitClosed();
    }

    @AsyncTest(virtualTime = true)
    void aClientWithBackoffGivesUpAfterOneHour(EventLoop loop) throws Exception {
        double start = loop.time();
        int port = freePort();
        BackoffClient client = new BackoffClient();
        assertThrows(TimeoutException.class, () -> timeout(3600, () -> client.connect("127.0.0.1", port)));
        assertEquals(start + 3600, loop.time());
        assertEquals(List.of(0.0, 1.0, 3.0, 7.0, 15.0, 31.0, 63.0, 127.0, 255.0, 511.0, 1023.0, 1623.0, 2223.0, 2823.0, 3423.0),
                sinceStart(client.attempts(), start));
    }

    @AsyncTest(virtualTime = true)
    void fixturesAndTheTestShareOneClockThatStartsAtZero(EventLoop loop, VirtualClock clock) {
        assertEquals(60.0, setUpAt);
        assertEquals(60.0, loop.time());
        clock.advance(Duration.ofMinutes(1));
        assertEquals(120.0, clock.time());
    }

    @AsyncTest(virtualTime = true)
    void tasksQueuesAndGroupsKeepTheOrderOfRealTime(EventLoop loop) {
        Queue<String> queue = new Queue<>();
        List<String> log = new ArrayList<>();
        TaskGroup.run(group -> {
            group.createTask(() -> {
                for (int i = 1; i <= 3; i++) {
                    sleep(3600);                       // an hourly producer...
                    queue.put("report " + i);
                }
            });
            group.createTask(() -> {
                for (int i = 1; i <= 3; i++) {
                    String item = queue.get();           // ...and a consumer that logs when it got each
                    log.add(item + " at " + (loop.time() - 60));
                }
            });
        });
        assertEquals(List.of("report 1 at 3600.0", "report 2 at 7200.0", "report 3 at 10800.0"), log);
        TimeoutException slow = assertThrows(TimeoutException.class, () -> waitFor(() -> sleep(86_400, "late"), 30.0));
        assertInstanceOf(CancelledError.class, slow.getCause(), "wait_for raises TimeoutError from the inner cancellation");
        assertEquals(60 + 3 * 3600 + 30.0, loop.time());
    }

    private static List<Double> sinceStart(List<Double> times, double start) {
        return times.stream().map(t -> t - start).toList();
    }

    /** A port nothing listens on (yet): connections to it are refused until the server starts. */
    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }
}
