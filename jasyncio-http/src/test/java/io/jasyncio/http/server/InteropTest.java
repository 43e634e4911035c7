package io.jasyncio.http.server;

import io.jasyncio.group.EventLoopGroup;
import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.net.GroupServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server against real clients, on every loop: curl, Python's http.client, Node's http, the
 * JDK's HttpClient and wrk (each skipped, saying so, where it is not installed). The server runs
 * on a loop thread of its own; the clients are processes, each bounded in time.
 */
class InteropTest {
    private static final HttpResponse HELLO = HttpResponse.text(200, "Hello, World!");

    /** /hello: a fixed response; /big: 1 MiB by length; the rest as {@link StreamingTest#handle} (/echo: the body back, chunked). */
    static void handle(HttpExchange exchange) throws Exception {
        if (exchange.request().method().equals("CONNECT")) {
            TakeOverTest.tunnel(exchange, port -> true); // to loopback
            return;
        }
        switch (exchange.request().path()) {
            case "/hello" -> exchange.respond(HELLO);
            case "/big" -> {
                exchange.startResponse(200, HttpHeaders.empty(), 1 << 20);
                byte[] kib = new byte[1024];
                java.util.Arrays.fill(kib, (byte) 'x');
                for (int i = 0; i < 1024; i++) {
                    exchange.write(kib);
                }
                exchange.end();
            }
            default -> StreamingTest.handle(exchange);
        }
    }

    /** Runs {@code body} with a server on its own loop thread; the port is its argument. */
    private static void withServer(String loop, ServerBody body) throws Exception {
        withServer(loop, HttpServerOptions.defaults(), body);
    }

    /** As {@link #withServer(String, ServerBody)}, the server set up as {@code options} say. */
    static void withServer(String loop, HttpServerOptions options, ServerBody body) throws Exception {
        try (EventLoopGroup group = new EventLoopGroup(1, loop)) {
            HttpGroupServer server = HttpGroupServer.startStreaming(group, InteropTest::handle, "127.0.0.1", 0,
                    options, GroupServer.Mode.ACCEPTOR).get(10, TimeUnit.SECONDS);
            try {
                body.run(server.port());
            } finally {
                server.shutdown(5).get(10, TimeUnit.SECONDS);
            }
        }
    }

    interface ServerBody {
        void run(int port) throws Exception;
    }

    static boolean installed(String tool) {
        try {
            Process p = new ProcessBuilder("sh", "-c", "command -v " + tool).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Runs {@code command} (30 s at most); its output, after checking it exited 0. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("interop", ".txt");
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command.getFirst() + " did not finish within 30 s");
            }
            String output = Files.readString(out, StandardCharsets.ISO_8859_1);
            assertEquals(0, p.exitValue(), command + " failed:\n" + output);
            return output;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void curl(String loop) throws Exception {
        Assumptions.assumeTrue(installed("curl"), "curl is not installed");
        withServer(loop, port -> {
            String base = "http://127.0.0.1:" + port;
            // two requests on one connection: curl says it reused it
            String two = run(List.of("curl", "-sS", "-v", "--http1.1", base + "/hello", base + "/hello"));
            assertEquals(2, two.split("Hello, World!", -1).length - 1, two);
            assertTrue(two.contains("Re-using existing connection") || two.contains("Reusing existing connection"), two);
            String head = run(List.of("curl", "-sS", "-I", base + "/hello"));
            assertTrue(head.startsWith("HTTP/1.1 200 OK") && head.contains("Content-Length: 13"), head);
            String old = run(List.of("curl", "-sS", "--http1.0", "-i", base + "/hello"));
            assertTrue(old.contains("Connection: close") && old.endsWith("Hello, World!"), old);
            Path upload = Files.createTempFile("upload", ".bin");
            try {
                byte[] data = new byte[3 * 1024 * 1024];
                new java.util.Random(3).nextBytes(data);
                Files.write(upload, data);
                // a chunked upload, with the Expect: 100-continue curl sends for large bodies
                String echoed = run(List.of("curl", "-sS", "-H", "Transfer-Encoding: chunked", "-H", "Expect: 100-continue",
                        "--data-binary", "@" + upload, "-o", upload + ".out", "-w", "%{http_code} %{size_download}", base + "/echo"));
                assertEquals("200 " + data.length, echoed);
                assertTrue(java.util.Arrays.equals(data, Files.readAllBytes(Path.of(upload + ".out"))), "the echo is the upload");
            } finally {
                Files.deleteIfExists(upload);
                Files.deleteIfExists(Path.of(upload + ".out"));
            }
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void curlThroughAConnectTunnel(String loop) throws Exception {
        Assumptions.assumeTrue(installed("curl"), "curl is not installed");
        withServer(loop, port -> {
            // -p: curl asks the proxy (this server) for a CONNECT tunnel, here to the server itself
            String base = "http://127.0.0.1:" + port;
            String out = run(List.of("curl", "-sS", "-p", "-x", base, "-o", "/dev/null", "-o", "/dev/null",
                    "-w", "%{http_connect} %{http_code} %{size_download};", base + "/hello", base + "/big"));
            // the second request needs no CONNECT (000): it goes through the tunnel the first opened
            assertEquals("200 200 13;000 200 1048576;", out);
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void pythonHttpClient(String loop) throws Exception {
        Assumptions.assumeTrue(installed("python3"), "python3 is not installed");
        withServer(loop, port -> {
            String script = String.join("\n",
                    "import http.client, sys",
                    "c = http.client.HTTPConnection('127.0.0.1', " + port + ", timeout=20)",
                    "out = []",
                    "for i in range(3):",
                    "    c.request('GET', '/hello'); r = c.getresponse(); out.append('%d %s' % (r.status, r.read().decode()))",
                    "c.request('HEAD', '/hello'); r = c.getresponse(); out.append('%d %s %r' % (r.status, r.getheader('Content-Length'), r.read()))",
                    "c.request('POST', '/echo', body=iter([b'abc', b'defg']), encode_chunked=True); r = c.getresponse()",
                    "out.append('%d %s %s' % (r.status, r.getheader('Transfer-Encoding'), r.read().decode()))",
                    "c.request('GET', '/big'); r = c.getresponse(); out.append('%d %d' % (r.status, len(r.read())))",
                    "print('|'.join(out))");
            String out = run(List.of("python3", "-c", script)).strip();
            assertEquals("200 Hello, World!|200 Hello, World!|200 Hello, World!|200 13 b''|200 chunked abcdefg|200 1048576", out);
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void nodeHttp(String loop) throws Exception {
        Assumptions.assumeTrue(installed("node"), "node is not installed");
        withServer(loop, port -> {
            String script = String.join("\n",
                    "const http = require('http');",
                    "const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });",
                    "const sockets = new Set(); const out = [];",
                    "function req(method, path, body) { return new Promise((resolve, reject) => {",
                    "  const r = http.request({ host: '127.0.0.1', port: " + port + ", method, path, agent }, (res) => {",
                    "    sockets.add(res.socket); const parts = [];",
                    "    res.on('data', (d) => parts.push(d)); res.on('end', () => resolve(res.statusCode + ' ' + Buffer.concat(parts).length)); });",
                    "  r.on('error', reject); if (body) { r.write(body[0]); r.end(body[1]); } else r.end(); }); }",
                    "(async () => {",
                    "  for (let i = 0; i < 3; i++) out.push(await req('GET', '/hello'));",
                    "  out.push(await req('POST', '/echo', ['12345', '678']));",
                    "  out.push(await req('GET', '/big'));",
                    "  out.push('sockets ' + sockets.size); agent.destroy(); console.log(out.join('|'));",
                    "})().catch((e) => { console.error(e); process.exit(1); });");
            String out = run(List.of("node", "-e", script)).strip();
            assertEquals("200 13|200 13|200 13|200 8|200 1048576|sockets 1", out);
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void jdkHttpClient(String loop) throws Exception {
        withServer(loop, port -> {
            try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                    .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    var response = client.send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + port + "/hello")).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                    got.add(response.statusCode() + " " + response.body());
                }
                var echo = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/echo"))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("posted")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                got.add(echo.statusCode() + " " + echo.body());
                assertEquals(List.of("200 Hello, World!", "200 Hello, World!", "200 Hello, World!", "200 posted"), got);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void wrk(String loop) throws Exception {
        Assumptions.assumeTrue(installed("wrk"), "wrk is not installed (apt-get install -y wrk)");
        withServer(loop, port -> {
            String out = run(List.of("wrk", "-t1", "-c8", "-d1s", "http://127.0.0.1:" + port + "/hello"));
            assertTrue(out.contains("requests in"), out);
            assertTrue(!out.contains("Non-2xx") && !out.contains("Socket errors"), out);
        });
    }
}
