package io.jasyncio.http.server;

import io.jasyncio.debug.LogCapture;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handler that holds the loop (a CPU-bound call), served over a real socket in debug mode: the
 * handler runs as an eager task inside the transport's read callback, and the slow-callback line
 * names that callback as asyncio does, then the handler's task, whose eager step took the time;
 * in debug mode that task is named after its request, so the line names the route.
 */
@EveryEngine
class SlowHandlerDebugModeTest {
    private static final Pattern LINE = Pattern.compile("Executing <Handle [^>]+> took (\\d+\\.\\d{3}) seconds; "
            + "in it, eager step of <Task finished name='GET /verify\\?slow=1' coro=io\\.jasyncio\\.http\\.server\\.HandlerTask[^>]*> "
            + "took (\\d+\\.\\d{3}) seconds");

    /** Stands in for a CPU-bound verify on the loop: busy for about 150 ms, bounded by a count too. */
    private static HttpResponse verifyOnTheLoop(io.jasyncio.http.HttpRequest request) {
        long end = System.nanoTime() + 150_000_000L;
        long spins = 0;
        while (System.nanoTime() < end && spins < 4_000_000_000L) {
            spins++;
        }
        return HttpResponse.text(200, "verified " + request.path());
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theSlowLineNamesTheHandlersTaskInsideTheReadCallback(String loopName) {
        try (LogCapture log = new LogCapture("io.jasyncio.loop")) {
            HttpTesting.run(loopName, 20, () -> {
                EventLoop loop = getRunningLoop();
                loop.setDebug(true);
                loop.setSlowCallbackDuration(0.05);
                HttpServer server = HttpServer.start(loop, SlowHandlerDebugModeTest::verifyOnTheLoop, "127.0.0.1", 0,
                        HttpServerOptions.defaults());
                TestClient client = TestClient.connect(server.port());
                client.send("GET /verify?slow=1 HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals("verified /verify", client.response().text());
                client.close();
                server.shutdown(5);
                loop.setDebug(false);
                return null;
            });
            List<String> lines = log.containing("; in it, eager step of <Task");
            assertEquals(1, lines.size(), log.messages().toString());
            Matcher m = LINE.matcher(lines.getFirst());
            assertTrue(m.matches(), lines.getFirst());
            assertTrue(Double.parseDouble(m.group(2)) <= Double.parseDouble(m.group(1)), lines.getFirst());
        }
    }
}
