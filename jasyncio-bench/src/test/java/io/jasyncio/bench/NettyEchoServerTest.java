package io.jasyncio.bench;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Netty server of bench/compare.sh, as the script runs it (a child JVM, {@code --transport
 * nio|epoll|io_uring}): it prints its {@code listening on} line and echoes what two connections
 * send, byte for byte. A native transport the kernel refuses is skipped with Netty's reason.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyEchoServerTest {
    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll", "io_uring"})
    void echoesOnEveryTransport(String transport) throws Exception {
        switch (transport) {
            case "epoll" -> assumeTrue(Epoll.isAvailable(), () -> "no native epoll: " + Epoll.unavailabilityCause());
            case "io_uring" -> assumeTrue(IoUring.isAvailable(), () -> "no io_uring: " + IoUring.unavailabilityCause());
            default -> { }
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process server = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), NettyEchoServer.class.getName(),
                "--host", "127.0.0.1", "--port", "0", "--transport", transport))
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            Matcher listening = ListeningLine.await(out);
            assertNotNull(listening, "the server printed no 'listening on HOST:PORT' line");
            InetSocketAddress address = new InetSocketAddress(listening.group(1), Integer.parseInt(listening.group(2)));
            try (Socket a = new Socket(); Socket b = new Socket()) {
                a.connect(address, 5_000);
                b.connect(address, 5_000);
                for (int round = 0; round < 3; round++) {
                    assertEchoes(a, message(1024, round));
                    assertEchoes(b, message(10 * 1024, round + 7));
                }
            }
        } finally {
            server.destroy();
            assertTrue(server.waitFor(10, TimeUnit.SECONDS), "the server ended when told to");
        }
    }

    private static byte[] message(int size, int seed) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i * 31 + seed);
        }
        return data;
    }

    private static void assertEchoes(Socket socket, byte[] sent) throws Exception {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(sent);
        out.flush();
        byte[] back = new byte[sent.length];
        new DataInputStream(socket.getInputStream()).readFully(back);
        assertArrayEquals(sent, back);
    }
}
