package io.jasyncio.bench;

import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Netty HTTP server of bench/compare-http.sh, as the script runs it (a child JVM): it prints
 * its {@code listening on} line and answers keep-alive GETs with its one body and a Date.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyHttpServerTest {
    @ParameterizedTest
    @CsvSource({"epoll, -1", "epoll, 16384", "nio, -1"})
    void answersEveryRequestWithItsBody(String transport, int size) throws Exception {
        if (transport.equals("epoll")) {
            assumeTrue(Epoll.isAvailable(), () -> "no native epoll: " + Epoll.unavailabilityCause());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process server = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), NettyHttpServer.class.getName(),
                "--host", "127.0.0.1", "--port", "0", "--transport", transport, "--size", String.valueOf(size)))
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            Matcher listening = ListeningLine.await(out);
            assertNotNull(listening, "the server printed no 'listening on HOST:PORT' line");
            URI uri = URI.create("http://127.0.0.1:" + listening.group(2) + "/");
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode());
                assertTrue(response.headers().firstValue("Date").isPresent(), "a Date, as the other peers send");
                assertEquals(size < 0 ? "Hello, world!" : "x".repeat(size), response.body());
            }
        } finally {
            server.destroy();
            assertTrue(server.waitFor(10, TimeUnit.SECONDS), "the server ended when told to");
        }
    }
}
