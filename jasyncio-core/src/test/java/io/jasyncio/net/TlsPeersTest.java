package io.jasyncio.net;

import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALPN and client certificates against real peers on loopback: the openssl command (s_client,
 * s_server) and CPython's ssl module, with certificates a test authority signed.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class TlsPeersTest {
    @TempDir
    static Path dir;
    static TestAuthority ca;

    @BeforeAll
    static void authority() throws Exception {
        ca = TestAuthority.create(dir);
    }

    /** What a server saw of one TLS client: the ALPN protocol agreed and the client's certificate. */
    record Seen(String alpn, Object peercert, String line) {
    }

    /** A TLS server that records what the first client presented and answers its first line. */
    static Server recordingServer(TlsOptions tls, Future<Seen> seen) throws IOException {
        return startServer((reader, writer) -> {
            String alpn = (String) writer.getExtraInfo("alpn_protocol");
            Object peercert = writer.getExtraInfo("peercert");
            byte[] line = reader.readline();
            if (!seen.isDone()) {
                seen.setResult(new Seen(alpn, peercert, new String(line, StandardCharsets.UTF_8).strip()));
            }
            writer.write("ok\n".getBytes());
            writer.drain();
            writer.close();
        }, "127.0.0.1", 0, ServerOptions.defaults().withTls(tls));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void serverAlpnWithOpensslClientAndCpythonClient(String loopName) {
        NetTesting.run(loopName, 50, () -> {
            TlsOptions tls = TlsOptions.of(ca.serverContext()).withAlpnProtocols("h2", "http/1.1");
            Future<Seen> fromOpenssl = getRunningLoop().createFuture();
            Server server = recordingServer(tls, fromOpenssl);
            int port = NetTesting.port(server);
            String out = toThread(() -> run("hello\n", "openssl", "s_client", "-connect", "127.0.0.1:" + port,
                    "-CAfile", ca.caPem.toString(), "-servername", "localhost", "-alpn", "http/1.1", "-ign_eof"));
            assertTrue(out.contains("ALPN protocol: http/1.1"), out);
            assertEquals(new Seen("http/1.1", null, "hello"), await(fromOpenssl));
            NetTesting.closeServer(server);

            Future<Seen> fromPython = getRunningLoop().createFuture();
            server = recordingServer(tls, fromPython);
            int port2 = NetTesting.port(server);
            String py = toThread(() -> python(port2, "['h2']", false));
            assertTrue(py.contains("selected=h2 answer=ok"), py);
            assertEquals("h2", await(fromPython).alpn());
            NetTesting.closeServer(server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void clientAlpnWithOpensslServer(String loopName) throws Exception {
        try (OpensslServer s = OpensslServer.start("-alpn", "http/1.1")) {
            NetTesting.run(loopName, 30, () -> {
                StreamConnection c = openConnection("127.0.0.1", s.port, TlsOptions.of(ca.clientWithoutCertificate())
                        .withServerHostname("localhost").withAlpnProtocols("h2", "http/1.1"));
                assertEquals("http/1.1", c.writer().getExtraInfo("alpn_protocol"));
                c.writer().close();
                return null;
            });
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void serverRequiringClientCertificatesAcceptsCpythonWithOneAndRefusesItWithout(String loopName) {
        NetTesting.run(loopName, 50, () -> {
            TlsOptions tls = TlsOptions.of(ca.serverContext()).withClientAuth(TlsOptions.ClientAuth.REQUIRED);
            Future<Seen> seen = getRunningLoop().createFuture();
            Server server = recordingServer(tls, seen);
            int port = NetTesting.port(server);
            String without = toThread(() -> python(port, "None", false));
            // refused: an alert (error=...) or the connection ended (answer= with nothing), never the answer
            assertTrue(without.contains("error=") || without.contains("answer=\n") || without.strip().endsWith("answer="),
                    "a client without a certificate must be refused: " + without);
            assertFalse(seen.isDone(), "the refused client must never reach the handler");

            String with = toThread(() -> python(port, "None", true));
            assertTrue(with.contains("answer=ok"), with);
            X509Certificate cert = assertInstanceOf(X509Certificate.class, await(seen).peercert());
            assertEquals("CN=client", cert.getSubjectX500Principal().getName());
            NetTesting.closeServer(server);
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void clientCertificateAcceptedAndRefusedByOpensslServer(String loopName) throws Exception {
        try (OpensslServer s = OpensslServer.start("-Verify", "1", "-CAfile", ca.caPem.toString())) {
            NetTesting.run(loopName, 30, () -> {
                StreamConnection c = openConnection("127.0.0.1", s.port, TlsOptions.of(ca.clientWithCertificate())
                        .withServerHostname("localhost"));
                c.writer().write("from-a-verified-client\n".getBytes());
                c.writer().drain();
                return null;
            });
            assertTrue(s.waitForOutput("from-a-verified-client"), s.output());
        }
        try (OpensslServer s = OpensslServer.start("-Verify", "1", "-CAfile", ca.caPem.toString())) {
            NetTesting.run(loopName, 30, () -> {
                Throwable refused = null;
                try {
                    StreamConnection c = openConnection("127.0.0.1", s.port, TlsOptions.of(ca.clientWithoutCertificate())
                            .withServerHostname("localhost"));
                    c.writer().write("unverified\n".getBytes());
                    byte[] answer = c.reader().read(100); // TLS 1.3: the refusal comes after the client's handshake
                    assertEquals(0, answer.length, "the server must end the connection, got " + new String(answer));
                } catch (IOException e) {
                    refused = e;
                }
                assertTrue(refused == null || refused instanceof javax.net.ssl.SSLException
                        || refused instanceof ConnectionResetException, String.valueOf(refused));
                return null;
            });
            assertFalse(s.output().contains("unverified"), s.output());
        }
    }

    /** CPython's ssl as a client: offers {@code alpn} (a Python list or None), with or without the client certificate. */
    private static String python(int port, String alpn, boolean withCertificate) throws Exception {
        String script = String.join("\n",
                "import socket, ssl, sys",
                "ctx = ssl.create_default_context(cafile=sys.argv[2])",
                "alpn = " + alpn,
                "if alpn: ctx.set_alpn_protocols(alpn)",
                "if sys.argv[3] == 'yes': ctx.load_cert_chain(sys.argv[4], sys.argv[5])",
                "try:",
                "    with socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=10) as raw:",
                "        with ctx.wrap_socket(raw, server_hostname='localhost') as s:",
                "            s.sendall(b'hello\\n')",
                "            answer = s.recv(100).decode().strip()",
                "            print(f'selected={s.selected_alpn_protocol()} answer={answer}')",
                "except (OSError, ssl.SSLError) as e:",
                "    print(f'error={type(e).__name__}: {e}')",
                "");
        return run("", "python3", "-c", script, String.valueOf(port), ca.caPem.toString(),
                withCertificate ? "yes" : "no", ca.clientPem.toString(), ca.clientKey.toString());
    }

    /** Runs a command to its end with {@code input} on its stdin; returns stdout and stderr together. */
    private static String run(String input, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            p.getOutputStream().write(input.getBytes());
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "still running: " + String.join(" ", command));
            return out;
        } finally {
            p.destroyForcibly();
        }
    }

    /** openssl s_server on a free loopback port, with the test authority's server certificate. */
    static final class OpensslServer implements AutoCloseable {
        final int port;
        private final Process process;
        private final StringBuilder output = new StringBuilder();

        private OpensslServer(int port, Process process) {
            this.port = port;
            this.process = process;
            Thread.ofVirtual().start(() -> {
                try {
                    byte[] buf = new byte[4096];
                    int n;
                    while ((n = process.getInputStream().read(buf)) > 0) {
                        synchronized (output) {
                            output.append(new String(buf, 0, n));
                            output.notifyAll();
                        }
                    }
                } catch (IOException ended) {
                    // the process is gone
                }
            });
        }

        static OpensslServer start(String... extra) throws Exception {
            int port;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = probe.getLocalPort();
            }
            List<String> command = new ArrayList<>(List.of("openssl", "s_server", "-accept", "127.0.0.1:" + port,
                    "-cert", ca.serverPem.toString(), "-key", ca.serverKey.toString(), "-naccept", "1"));
            command.addAll(List.of(extra));
            OpensslServer s = new OpensslServer(port, new ProcessBuilder(command).redirectErrorStream(true).start());
            if (!s.waitForOutput("ACCEPT")) {
                s.close();
                throw new IllegalStateException("openssl s_server did not start: " + s.output());
            }
            return s;
        }

        boolean waitForOutput(String text) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            synchronized (output) {
                while (output.indexOf(text) < 0 && System.nanoTime() < deadline && process.isAlive()) {
                    output.wait(100);
                }
                return output.indexOf(text) >= 0;
            }
        }

        String output() {
            synchronized (output) {
                return output.toString();
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
