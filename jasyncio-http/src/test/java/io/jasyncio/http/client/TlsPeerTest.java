package io.jasyncio.http.client;

import io.jasyncio.http.HttpHeaders;
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

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
    private static final String PASSWORD = "changeit";
    private static Path dir;
    private static PeerProcess server;
    private static SSLContext trusting;

    @BeforeAll
    static void startServer() throws Exception {
        dir = Files.createTempDirectory("jasyncio-http-tls");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1");
        openssl("pkcs12", "-export", "-inkey", "key.pem", "-in", "cert.pem", "-out", "server.p12",
                "-passout", "pass:" + PASSWORD);
        trusting = contextTrusting(dir.resolve("cert.pem"));
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        server = PeerProcess.startOnPort(List.of("openssl", "s_server", "-www", "-accept", "127.0.0.1:" + port,
                "-cert", dir.resolve("cert.pem").toString(), "-key", dir.resolve("key.pem").toString()), port, "ACCEPT");
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (server != null) {
            server.close();
        }
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }

    private static void openssl(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("openssl " + String.join(" ", args) + " failed");
        }
    }

    /** A server context presenting the test's certificate (for jasyncio-http's own server). */
    private static SSLContext serverContext() throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), null, null);
        return context;
    }

    private static SSLContext contextTrusting(Path certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(certificate)) {
            trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
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
                .withServerOptions(ServerOptions.defaults().withTls(TlsOptions.of(serverContext())));
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
