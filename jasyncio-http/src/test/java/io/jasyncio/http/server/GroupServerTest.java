package io.jasyncio.http.server;

import io.jasyncio.group.EventLoopGroup;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.net.GroupServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server on a loop group: connections spread over the loops, each answered on its own; shutdown ends them all. */
class GroupServerTest {
    @ParameterizedTest
    @EnumSource(value = GroupServer.Mode.class, names = {"REUSE_PORT", "ACCEPTOR"})
    void servesOnEveryLoopAndShutsDown(GroupServer.Mode mode) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(mode != GroupServer.Mode.REUSE_PORT || GroupServer.reusePortAvailable(),
                "SO_REUSEPORT is not available here");
        try (EventLoopGroup group = new EventLoopGroup(2)) {
            HttpGroupServer server = HttpGroupServer.start(group,
                    request -> HttpResponse.text(200, Thread.currentThread().getName()),
                    "127.0.0.1", 0, HttpServerOptions.defaults(), mode).get(10, TimeUnit.SECONDS);
            Set<String> threads = new HashSet<>();
            for (int c = 0; c < 16; c++) {
                try (Socket socket = new Socket("127.0.0.1", server.port())) {
                    socket.setSoTimeout(10_000);
                    for (int i = 0; i < 3; i++) {
                        threads.add(get(socket));
                    }
                }
            }
            assertTrue(threads.size() == 2 || mode == GroupServer.Mode.REUSE_PORT,
                    "the acceptor hands connections round-robin to both loops: " + threads);
            server.shutdown(5).get(10, TimeUnit.SECONDS);
            assertTrue(refused(server.port()), "no longer listening");
        }
    }

    @org.junit.jupiter.api.Test
    void theLoopsShareOneBodyBudget() throws Exception {
        try (EventLoopGroup group = new EventLoopGroup(2)) {
            // the acceptor hands the two connections to the two loops; 2 x 200 KiB do not fit 256 KiB
            HttpGroupServer server = HttpGroupServer.start(group, request -> HttpResponse.text(200, "ok"), "127.0.0.1", 0,
                    HttpServerOptions.defaults().withBodyBufferBudget(256 * 1024), GroupServer.Mode.ACCEPTOR)
                    .get(10, TimeUnit.SECONDS);
            try (Socket a = new Socket("127.0.0.1", server.port()); Socket b = new Socket("127.0.0.1", server.port())) {
                byte[] head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                for (Socket s : java.util.List.of(a, b)) {
                    s.getOutputStream().write(head);
                    s.getOutputStream().write(new byte[200 * 1024]);
                    s.setSoTimeout(50);
                }
                String answer = null;
                for (long deadline = System.nanoTime() + 5_000_000_000L; answer == null && System.nanoTime() < deadline; ) {
                    for (Socket s : java.util.List.of(a, b)) {
                        byte[] buffer = new byte[64];
                        try {
                            int n = s.getInputStream().read(buffer);
                            if (n > 0 && answer == null) {
                                answer = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                            }
                        } catch (java.net.SocketTimeoutException nothingYet) {
                            // this one still waits for the rest of its body
                        }
                    }
                }
                assertTrue(answer != null && answer.startsWith("HTTP/1.1 503"),
                        "one of the bodies is refused, the budget being the server's, not each loop's: " + answer);
            }
            server.shutdown(0).get(10, TimeUnit.SECONDS);
        }
    }

    /** A keep-alive GET on a blocking socket; the response body. */
    private static String get(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            assertTrue(b >= 0, "EOF in the head: " + head);
            head.append((char) b);
        }
        int length = -1;
        for (String line : head.toString().split("\r\n")) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 200 OK\r\n"), head.toString());
        byte[] body = in.readNBytes(length);
        assertEquals(length, body.length);
        return new String(body, StandardCharsets.UTF_8);
    }

    private static boolean refused(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
