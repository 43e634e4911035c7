package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.toThread;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * asyncio's loop.sendfile and sock_sendfile on real sockets: 100 MiB to a CPython reader, plain
 * (zero-copy) and over TLS (through the transport), every byte checked by its digest.
 */
@Timeout(120)
@EveryLoop
@EveryEngine
class SendfileTest {
    private static final int SIZE = 100 << 20;

    @TempDir
    static Path dir;
    static Path file;
    static String fileDigest;
    static TestAuthority ca;

    @BeforeAll
    static void bigFile() throws Exception {
        file = dir.resolve("payload.bin");
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] block = NetTesting.pattern(1 << 20, 42);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < SIZE / block.length; i++) {
                block[0] = (byte) i; // no two blocks alike: a misplaced block changes the digest
                out.write(block);
                sha.update(block);
            }
        }
        fileDigest = HexFormat.of().formatHex(sha.digest());
        ca = TestAuthority.create(dir);
    }

    /** What one served transfer reports: the bytes sent, and the most its transport ever held buffered. */
    record Served(long sent, long maxBuffered) {
    }

    /**
     * A server whose handler writes a short header, sends the file, and closes; while it sends, a
     * timer samples the transport's write buffer every 5 ms.
     */
    private static Server fileServer(TlsOptions tls, Future<Served> served) throws IOException {
        return io.jasyncio.Asyncio.startServer((reader, writer) -> {
            EventLoop loop = getRunningLoop();
            Transport transport = writer.transport();
            long[] maxBuffered = {0};
            boolean[] sending = {true};
            Runnable[] sample = new Runnable[1];
            sample[0] = () -> {
                maxBuffered[0] = Math.max(maxBuffered[0], transport.getWriteBufferSize());
                if (sending[0]) {
                    loop.callLater(0.005, sample[0]);
                }
            };
            writer.write("header\n".getBytes()); // written before: must arrive first
            sample[0].run();
            try (FileChannel f = FileChannel.open(file, StandardOpenOption.READ)) {
                long sent = Sendfile.sendfile(loop, transport, f);
                sending[0] = false;
                served.setResult(new Served(sent, maxBuffered[0]));
                assertEquals(SIZE, f.position(), "the file's position is left after what was sent");
            }
            writer.close();
            writer.waitClosed();
        }, "127.0.0.1", 0, tls == null ? ServerOptions.defaults() : ServerOptions.defaults().withTls(tls));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void hundredMebibytesToASlowCpythonReaderPlainAndOverTlsWithBoundedBuffering(String loopName) {
        NetTesting.run(loopName, 110, () -> {
            for (boolean tls : new boolean[] {false, true}) {
                Future<Served> served = getRunningLoop().createFuture();
                Server server = fileServer(tls ? TlsOptions.of(ca.serverContext()) : null, served);
                int port = NetTesting.port(server);
                String report = toThread(() -> cpythonReader(port, tls));
                assertEquals("header " + SIZE + " " + fileDigest, report.strip(), (tls ? "TLS" : "plain") + " transfer");
                Served s = await(served);
                assertEquals((long) SIZE, s.sent());
                // The reader stalls for half a second: sendfile must wait for it, not buffer the file.
                // Zero-copy leaves nothing in the transport; through the transport (TLS) the buffer
                // stays near its high-water mark (64 KiB) plus one chunk and the TLS framing.
                assertTrue(s.maxBuffered() < (tls ? 1 << 20 : 64 << 10),
                        (tls ? "TLS" : "plain") + " transfer buffered up to " + s.maxBuffered() + " bytes");
                NetTesting.closeServer(server);
            }
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void sockSendfileSendsARegionAndLeavesThePositionAfterIt(String loopName) throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             FileChannel f = FileChannel.open(file, StandardOpenOption.READ)) {
            NetTesting.run(loopName, 30, () -> {
                EventLoop loop = getRunningLoop();
                try (SocketChannel client = SocketChannel.open()) {
                    client.configureBlocking(false);
                    Sockets.sockConnect(loop, client, listener.getLocalAddress());
                    try (SocketChannel peer = listener.accept()) {
                        long offset = 12_345;
                        int count = 3 << 20;
                        var reading = loop.runInExecutor(null, () -> {
                            ByteBuffer all = ByteBuffer.allocate(count);
                            while (all.hasRemaining() && peer.read(all) >= 0) {
                                // blocking reads until the region has arrived
                            }
                            return all.array();
                        });
                        assertEquals(count, Sendfile.sockSendfile(loop, client, f, offset, count));
                        assertEquals(offset + count, f.position());
                        byte[] expected = new byte[count];
                        f.read(ByteBuffer.wrap(expected), offset);
                        assertArrayEquals(expected, await(reading));
                    }
                }
                assertThrows(IllegalArgumentException.class, () -> Sendfile.sockSendfile(loop, null, f, -1, 10));
                assertThrows(IllegalArgumentException.class, () -> Sendfile.sockSendfile(loop, null, f, 0, 0));
                return null;
            });
        }
    }

    /** CPython reads everything (over TLS with the test authority's trust) and prints the header, size and digest. */
    private static String cpythonReader(int port, boolean tls) throws Exception {
        String script = String.join("\n",
                "import hashlib, socket, ssl, sys, time",
                "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=60)",
                "if sys.argv[2] == 'tls':",
                "    s = ssl.create_default_context(cafile=sys.argv[3]).wrap_socket(s, server_hostname='localhost')",
                "f = s.makefile('rb')",
                "header = f.readline().decode().strip()",
                "time.sleep(0.5)  # a slow reader: the sender must wait, not buffer",
                "h = hashlib.sha256(); n = 0",
                "while True:",
                "    b = f.read(1 << 20)",
                "    if not b: break",
                "    h.update(b); n += len(b)",
                "print(header, n, h.hexdigest())",
                "");
        Process p = new ProcessBuilder("python3", "-c", script, String.valueOf(port), tls ? "tls" : "plain",
                ca.caPem.toString()).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python still running");
            return out;
        } finally {
            p.destroyForcibly();
        }
    }
}
