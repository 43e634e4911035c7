package io.jasyncio.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./jasyncio echo-server --loops N} in a child JVM: it prints how it spreads, then echoes on every loop. */
@Timeout(60)
class EchoServerCommandTest {

    /** The help and the launcher's usage name every loop the lab can run on, io_uring included. */
    @Test
    void theHelpNamesEveryLoop() throws Exception {
        String help = new CommandLine(new EchoServerCommand()).getUsageMessage();
        assertTrue(help.contains("nio, epoll or io_uring"), help);
        String launcher = Files.readString(Path.of("..", "jasyncio"));
        assertTrue(launcher.contains("[--loop nio|epoll|io_uring]"), "the launcher's usage line");
    }

    @ParameterizedTest
    @CsvSource({"protocol, REUSE_PORT", "streams, ACCEPTOR"})
    void echoesOnAGroupOfLoops(String api, String spread) throws Exception {
        Process server = new ProcessBuilder(
                new File(System.getProperty("java.home"), "bin/java").getPath(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "echo-server", "--port", "0", "--loops", "2", "--api", api, "--spread", spread)
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> lines = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("listening on ")) {
                lines.add(line);
            }
            assertTrue(line != null, "no 'listening on' line: " + lines);
            assertTrue(lines.contains("2 loops (nio), connections spread by " + spread), lines.toString());
            int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
            for (int i = 0; i < 4; i++) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoTimeout(10_000);
                    byte[] message = ("message " + i).getBytes(StandardCharsets.US_ASCII);
                    s.getOutputStream().write(message);
                    assertArrayEquals(message, s.getInputStream().readNBytes(message.length));
                }
            }
        } finally {
            server.destroyForcibly();
            server.waitFor();
        }
    }
}
