package io.jasyncio.http.server;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.task.Runner;
import io.jasyncio.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link HttpServer#serveForever} in a real child JVM receiving real signals: the first Ctrl-C
 * (SIGINT) drains like SIGTERM, so the request in flight gets its whole response and the process
 * exits 0 without a stack trace; a second Ctrl-C during the drain stops at once.
 */
@Timeout(60)
class ServeForeverSignalsTest {

    /** The child: an HTTP server whose handler says when a request arrived, then takes {@code args[0]} seconds. */
    public static final class SlowServer {
        public static void main(String[] args) throws java.io.IOException {
            double handling = Double.parseDouble(args[0]);
            try (Runner runner = new Runner()) {
                runner.run(() -> {
                    HttpServer server = HttpServer.start(getRunningLoop(), request -> {
                        System.out.println("handling " + request.target());
                        sleep(handling);
                        return HttpResponse.text(200, "slow answer");
                    }, "127.0.0.1", 0, HttpServerOptions.defaults());
                    System.out.println("listening on " + server.port());
                    server.serveForever();
                    System.out.println("served");
                    return null;
                });
            }
            System.out.println("exiting");
        }
    }

    private static Socket requestFrom(int port) throws Exception {
        Socket client = new Socket();
        client.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        client.setSoTimeout(5_000); // a bound on the read below, not a measurement
        OutputStream out = client.getOutputStream();
        out.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return client;
    }

    private static String readAll(Socket client) throws Exception {
        InputStream in = client.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }

    @Test
    void theFirstCtrlCLetsTheRequestInFlightFinishThenExitsCleanly() throws Exception {
        try (ChildJvm child = new ChildJvm("nio", SlowServer.class.getName(), "0.5")) {
            int port = Integer.parseInt(child.awaitLine("listening on ", 30).substring("listening on ".length()));
            try (Socket client = requestFrom(port)) {
                child.awaitLine("handling /slow", 10);
                child.kill("INT");
                String response = readAll(client); // to the end: the server closes after this response
                assertTrue(response.startsWith("HTTP/1.1 200"), response);
                assertTrue(response.endsWith("slow answer"), response);
                assertTrue(response.toLowerCase().contains("connection: close"), response);
            }
            assertEquals(0, child.exitValue(20), child.output());
            String output = child.output();
            assertTrue(output.contains("\nserved\n"), "serveForever returned:\n" + output);
            assertFalse(output.contains("KeyboardInterrupt") || output.contains("\tat "), "no stack trace:\n" + output);
        }
    }

    @Test
    void aSecondCtrlCDuringTheDrainStopsAtOnce() throws Exception {
        try (ChildJvm child = new ChildJvm("nio", SlowServer.class.getName(), "3600")) {
            int port = Integer.parseInt(child.awaitLine("listening on ", 30).substring("listening on ".length()));
            try (Socket client = requestFrom(port)) {
                child.awaitLine("handling /slow", 10);
                child.kill("INT");
                Thread.sleep(200); // the drain has begun (a request that would take an hour)
                child.kill("INT");
                String response = readAll(client);
                assertFalse(response.contains("slow answer"), "dropped, not answered: " + response);
            }
            assertEquals(0, child.exitValue(20), child.output());
        }
    }
}
