package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.TestCertificate;
import io.jasyncio.http.server.HttpServer;
import io.jasyncio.http.server.HttpServerOptions;
import io.jasyncio.junit.AsyncTest;
import io.jasyncio.junit.OnEveryLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.TlsOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client over TLS (through {@link TlsOptions}) against {@code openssl s_server -www} and
 * jasyncio-http's own server, on every loop: a certificate made by openssl for the test, trusted
 * by the client's context; the system's trust store refuses it (verification is on by default).
 */
@OnEveryLoop
@EveryEngine
class TlsPeerTest {
    private static TestCertificate certificate;
    private static PeerProcess server;
    private static SSLContext trusting;
    private static SSLContext serving; // built here, before any loop runs: key loading is CPU-bound

    @BeforeAll
    static void startServer() throws Exception {
        certificate = TestCertificate.create();
        trusting = certificate.trustingContext();
        serving = certificate.serverContext();
        warmUpTls(serving, trusting);
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        server = PeerProcess.startOnPort(List.of("openssl", "s_server", "-www", "-accept", "127.0.0.1:" + port,
                "-cert", certificate.certificate().toString(), "-key", certificate.key().toString()), port, "ACCEPT");
    }

    /**
     * A few TLS handshakes between the two contexts, on plain threads before any loop runs: the
     * first key exchanges run the JDK's crypto cold (the JVM warming up, over the watchdog's 0.1 s
     * on a loaded machine), which on the loop would be reported as a step that holds it.
     */
    private static void warmUpTls(SSLContext server, SSLContext client) throws Exception {
        try (ServerSocket listener = server.getServerSocketFactory().createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 3; i++) {
                Thread accepting = Thread.ofPlatform().name("tls-warm-up").start(() -> {
                    try (SSLSocket accepted = (SSLSocket) listener.accept()) {
                        accepted.setSoTimeout(10_000);
                        accepted.startHandshake();
                        accepted.getOutputStream().write(1);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
                    socket.setSoTimeout(10_000);
                    socket.startHandshake();
                    assertEquals(1, socket.getInputStream().read(), "a byte over the warm-up handshake");
                }
                accepting.join(10_000);
            }
        }
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
        if (certificate != null) {
            certificate.close();
        }
    }

    @AsyncTest(timeout = 30)
    void getsAPageOverTls(EventLoop loop) throws IOException {
        HttpClientOptions options = HttpClientOptions.defaults().withTls(TlsOptions.of(trusting));
        try (HttpClient client = HttpClient.create(loop, options);
             HttpClientResponse response = client.get("https://localhost:" + server.port() + "/")) {
            assertEquals(200, response.status());
            String page = response.body().text(); // HTTP/1.0, no length: read until the server closes
            assertTrue(page.contains("Ciphers supported in s_server binary"), page);
        }
    }

    @AsyncTest(timeout = 30)
    void poolsTlsConnectionsToOurOwnServer(EventLoop loop) throws Exception {
        HttpServerOptions tls = HttpServerOptions.defaults()
                .withServerOptions(ServerOptions.defaults().withTls(TlsOptions.of(serving)));
        HttpServer server = HttpServer.startStreaming(loop, exchange -> {
            exchange.readAll();
            exchange.startResponse(200, HttpHeaders.of("Content-Type", "text/plain")); // chunked
            exchange.write("over ".getBytes(StandardCharsets.US_ASCII));
            exchange.write("tls".getBytes(StandardCharsets.US_ASCII));
            exchange.end();
        }, "127.0.0.1", 0, tls);
        String url = "https://localhost:" + server.port() + "/";
        try (HttpClient client = HttpClient.create(loop, HttpClientOptions.defaults().withTls(TlsOptions.of(trusting)))) {
            for (int i = 0; i < 3; i++) {
                try (HttpClientResponse response = client.send(HttpClientRequest.post(url, RequestBody.of("hello")))) {
                    assertEquals("over tls", response.body().text());
                }
            }
            assertEquals(1, client.openConnections(url), "three requests on one pooled TLS connection");
            assertEquals(1, server.connectionCount());
        } finally {
            server.close();
        }
    }

    @AsyncTest(timeout = 30)
    void anUntrustedCertificateIsRefused(EventLoop loop) {
        try (HttpClient client = HttpClient.create(loop)) {
            assertThrows(IOException.class, () -> client.get("https://localhost:" + server.port() + "/"));
        }
    }
}
