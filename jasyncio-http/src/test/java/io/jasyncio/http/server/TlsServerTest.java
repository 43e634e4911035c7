package io.jasyncio.http.server;

import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.TestCertificate;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.TlsOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server over TLS ({@link TlsOptions} in its {@link ServerOptions}) against real clients, on
 * every loop: the JDK's HttpClient and curl, trusting a certificate openssl made for the test.
 */
class TlsServerTest {
    private static TestCertificate certificate;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificate = TestCertificate.create();
    }

    @AfterAll
    static void removeCertificate() throws Exception {
        if (certificate != null) {
            certificate.close();
        }
    }

    private static HttpServerOptions overTls(HttpServerOptions options) throws Exception {
        return options.withServerOptions(options.serverOptions().withTls(TlsOptions.of(certificate.serverContext())));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void jdkHttpClient(String loop) throws Exception {
        InteropTest.withServer(loop, overTls(HttpServerOptions.defaults()), port -> {
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .sslContext(certificate.trustingContext()).build()) {
                String base = "https://127.0.0.1:" + port;
                List<String> got = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    var hello = client.send(HttpRequest.newBuilder(URI.create(base + "/hello")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    got.add(hello.statusCode() + " " + hello.body());
                }
                var echo = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
                        .POST(HttpRequest.BodyPublishers.ofString("posted")).build(), HttpResponse.BodyHandlers.ofString());
                got.add(echo.statusCode() + " " + echo.body());
                var big = client.send(HttpRequest.newBuilder(URI.create(base + "/big")).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                got.add(big.statusCode() + " " + big.body().length);
                assertEquals(List.of("200 Hello, World!", "200 Hello, World!", "200 Hello, World!", "200 posted",
                        "200 1048576"), got);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void curl(String loop) throws Exception {
        Assumptions.assumeTrue(InteropTest.installed("curl"), "curl is not installed");
        HttpServerOptions options = overTls(HttpServerOptions.defaults()
                .withLimits(HttpLimits.defaults().withMaxBodySize(2 * 1024 * 1024)));
        InteropTest.withServer(loop, options, port -> {
            String base = "https://127.0.0.1:" + port;
            String ca = certificate.certificate().toString();
            String two = InteropTest.run(List.of("curl", "-sS", "-v", "--http1.1", "--cacert", ca, base + "/hello", base + "/hello"));
            assertEquals(2, two.split("Hello, World!", -1).length - 1, two);
            assertTrue(two.contains("Re-using existing connection") || two.contains("Reusing existing connection"), two);
            Path upload = Files.createTempFile("upload", ".bin");
            try {
                byte[] data = new byte[1024 * 1024];
                new java.util.Random(5).nextBytes(data);
                Files.write(upload, data);
                String echoed = InteropTest.run(List.of("curl", "-sS", "--cacert", ca, "-H", "Transfer-Encoding: chunked",
                        "--data-binary", "@" + upload, "-o", upload + ".out", "-w", "%{http_code} %{size_download}", base + "/echo"));
                assertEquals("200 " + data.length, echoed);
                assertTrue(java.util.Arrays.equals(data, Files.readAllBytes(Path.of(upload + ".out"))), "the echo is the upload");
                // past the body limit, without waiting for a 100: curl is still sending when the
                // 413 comes, and reports it with its body
                Files.write(upload, new byte[6 * 1024 * 1024]);
                String refused = InteropTest.run(List.of("curl", "-sS", "--cacert", ca, "-H", "Expect:",
                        "--data-binary", "@" + upload, "-o", upload + ".out", "-w", "%{http_code}", base + "/echo"));
                assertEquals("413", refused);
                assertTrue(Files.readString(Path.of(upload + ".out")).startsWith("413 "), "the 413's body arrived");
            } finally {
                Files.deleteIfExists(upload);
                Files.deleteIfExists(Path.of(upload + ".out"));
            }
        });
    }
}
