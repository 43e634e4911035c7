package io.jasyncio.epoll;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the provider shows up, with the export (this JVM) and without it (a child JVM). */
@Timeout(60)
class ProviderAvailabilityTest {

    @Test
    void withTheExportEpollIsListedAfterNio() {
        EpollEventLoopProvider provider = new EpollEventLoopProvider();
        assertEquals("epoll", provider.name());
        assertNull(provider.unavailableReason());
        assertEquals(List.of("nio", "epoll"), EventLoops.availableNames().subList(0, 2));
    }

    @Test
    void withoutTheExportNioKeepsWorkingAndEpollSaysWhy() throws Exception {
        Process child = new ProcessBuilder(
                new File(System.getProperty("java.home"), "bin/java").getPath(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"),
                Probe.class.getName())
                .redirectErrorStream(true)
                .start();
        assertTrue(child.waitFor(40, TimeUnit.SECONDS), "the child JVM did not finish");
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), out);
        assertTrue(out.contains("available=[nio]"), out);
        assertTrue(out.contains("nio loop ok"), out);
        assertTrue(out.contains("--add-exports java.base/sun.nio.ch=ALL-UNNAMED"), out);
    }

    /** Runs in a JVM started without the sun.nio.ch export. */
    public static final class Probe {
        public static void main(String[] args) {
            System.out.println("available=" + EventLoops.availableNames());
            EventLoop nio = EventLoops.newEventLoop("nio");
            nio.close();
            System.out.println("nio loop ok");
            try {
                EventLoops.newEventLoop("epoll").close();
                System.out.println("epoll unexpectedly created");
            } catch (IllegalStateException e) {
                System.out.println(e.getMessage());
            }
        }
    }
}
