package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.toThread;
import static io.jasyncio.task.Tasks.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real slow reader (issue 29): a blocking client that sends as fast as it can and reads its
 * echo slowly, against an echo that pauses reading while its writes are paused (asyncio's flow
 * control). On nio and epoll the bytes wait in the kernel's socket buffers; the proactor
 * transport must not pull them into memory either. A multishot receive, asked for again after each
 * pause, used to bring in whatever piled up in the socket meanwhile, and all of it past the first
 * buffer was held (copied) for the next resume: megabytes per connection.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SlowReaderMemoryTest {
    private static final int TOTAL = 24 << 20;
    /** What may be held for a resume: what beats one cancel, a receive's worth or two. */
    private static final int HELD_BOUND = 256 * 1024;

    /** Echoes, pausing reading while its writes are paused; records the most it ever held. */
    static final class PausingEcho implements Protocol {
        ProactorSocketTransport transport;
        int maxHeld;
        int pauses;
        long maxBuffered;

        @Override
        public void connectionMade(Transport transport) {
            this.transport = (ProactorSocketTransport) transport;
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            transport.write(data);
            observe();
        }

        @Override
        public void pauseWriting() {
            pauses++;
            transport.pauseReading();
        }

        @Override
        public void resumeWriting() {
            transport.resumeReading();
            observe();
        }

        private void observe() {
            maxHeld = Math.max(maxHeld, transport.heldBytes());
            maxBuffered = Math.max(maxBuffered, transport.getWriteBufferSize());
        }
    }

    @Test
    void aSlowReaderIsNotBufferedInMemory() {
        NetTesting.run("io_uring", 50, () -> {
            EventLoop loop = getRunningLoop();
            PausingEcho[] echo = new PausingEcho[1];
            Server server = Network.createServer(loop, () -> echo[0] = new PausingEcho(), "127.0.0.1", 0);
            int port = NetTesting.port(server);
            long echoed = toThread(() -> {
                try (Socket client = new Socket()) {
                    client.setReceiveBufferSize(64 * 1024); // the echo backs up soon
                    client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    Thread sender = Thread.ofPlatform().start(() -> send(client));
                    long got = readSlowly(client.getInputStream());
                    sender.join();
                    return got;
                }
            });
            assertEquals(TOTAL, echoed, "every byte came back");
            PausingEcho e = echo[0];
            assertTrue(e.pauses > 1, "the slow reader paused the echo only " + e.pauses + " times");
            assertTrue(e.maxHeld <= HELD_BOUND, "held " + e.maxHeld + " bytes for a resume (bound " + HELD_BOUND + ")");
            assertTrue(e.maxBuffered <= Transport.DEFAULT_HIGH_WATER + HELD_BOUND, "buffered " + e.maxBuffered);
            NetTesting.closeServer(server);
            return null;
        });
    }

    private static void send(Socket client) {
        byte[] block = NetTesting.pattern(64 * 1024, 29);
        try {
            OutputStream out = client.getOutputStream();
            for (int sent = 0; sent < TOTAL; sent += block.length) {
                out.write(block);
            }
            client.shutdownOutput();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** Reads to EOF, 16 KiB at a time, pausing 2 ms after every 256 KiB: at most ~128 MiB/s, in practice far less. */
    private static long readSlowly(InputStream in) throws Exception {
        byte[] buffer = new byte[16 * 1024];
        long got = 0;
        long sincePause = 0;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            got += n;
            sincePause += n;
            if (sincePause >= 256 * 1024) {
                sincePause = 0;
                Thread.sleep(2);
            }
        }
        return got;
    }
}
