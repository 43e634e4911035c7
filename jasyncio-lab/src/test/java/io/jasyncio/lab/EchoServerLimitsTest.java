package io.jasyncio.lab;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.net.Network;
import io.jasyncio.net.Server;
import io.jasyncio.net.ServerOptions;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.Streams;
import io.jasyncio.task.Runner;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The echo server's two APIs under peers that misbehave: one that never reads, ones that reset. */
@Timeout(60)
class EchoServerLimitsTest {
    private static final int MIB = 1 << 20;
    private static final long PUSHED = 200L * MIB;

    /** What the client threads threw: checked at the end of each test. */
    private final List<Throwable> clientFailures = Collections.synchronizedList(new ArrayList<>());

    private Thread startClient(Runnable body) {
        return Thread.ofPlatform().daemon().start(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                clientFailures.add(t);
            }
        });
    }

    /**
     * A client pushes 200 MiB and, at first, reads nothing: the protocol echo stops reading while
     * its writes are paused, so the server's write buffer stays within its high-water mark plus
     * one read, the client is held back by TCP, and everything arrives once it reads.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.EventLoops#availableNames")
    void protocolEchoHoldsBackAPeerThatDoesNotRead(String loopName) {
        try (Runner runner = new Runner(false, loopName)) {
            runner.run(() -> {
                EventLoop loop = getRunningLoop();
                List<EchoProtocol> echoes = new ArrayList<>();
                Server server = Network.createServer(loop, () -> {
                    EchoProtocol p = new EchoProtocol();
                    echoes.add(p);
                    return p;
                }, List.of("127.0.0.1"), 0, ServerOptions.defaults());
                int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();
                Socket client = new Socket();
                client.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                AtomicLong sent = new AtomicLong();
                AtomicLong received = new AtomicLong();
                Thread writer = startClient(() -> push(client, sent));

                long maxBuffered = 0;
                long lastSent = -1;
                double stillSince = loop.time();
                while (loop.time() - stillSince < 0.5 && sent.get() < PUSHED) { // until the client is held back
                    maxBuffered = Math.max(maxBuffered, buffered(echoes));
                    if (sent.get() != lastSent) {
                        lastSent = sent.get();
                        stillSince = loop.time();
                    }
                    sleep(0.01);
                }
                long sentWhileNotReading = sent.get();
                assertTrue(maxBuffered <= MIB, "the server buffered " + maxBuffered + " bytes for a peer that does not read");
                assertTrue(sentWhileNotReading < 64L * MIB, sentWhileNotReading + " bytes accepted from a peer that does not read");

                Thread reader = startClient(() -> drain(client, received));
                while (reader.isAlive() || writer.isAlive()) {
                    maxBuffered = Math.max(maxBuffered, buffered(echoes));
                    sleep(0.01);
                }
                assertEquals(List.of(), clientFailures);
                assertEquals(PUSHED, sent.get());
                assertEquals(PUSHED, received.get(), "every byte echoed once the client reads");
                assertTrue(maxBuffered <= MIB, "the server buffered " + maxBuffered + " bytes");
                client.close();
                server.close();
                return null;
            });
        }
    }

    private static long buffered(List<EchoProtocol> echoes) {
        long total = 0;
        for (EchoProtocol p : echoes) {
            if (p.transport() != null) {
                total += p.transport().getWriteBufferSize();
            }
        }
        return total;
    }

    /** Writes PUSHED bytes, then half-closes. */
    private static void push(Socket client, AtomicLong sent) {
        byte[] chunk = new byte[MIB];
        try {
            OutputStream out = client.getOutputStream();
            while (sent.get() < PUSHED) {
                out.write(chunk);
                sent.addAndGet(chunk.length);
            }
            client.shutdownOutput();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static void drain(Socket client, AtomicLong received) {
        byte[] buf = new byte[MIB];
        try {
            InputStream in = client.getInputStream();
            int n;
            while ((n = in.read(buf)) > 0) {
                received.addAndGet(n);
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** Peers that reset mid-stream are a normal end for the streams echo: nothing is reported. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.EventLoops#availableNames")
    void streamsEchoEndsQuietlyOnAReset(String loopName) {
        try (Runner runner = new Runner(false, loopName)) {
            runner.run(() -> {
                EventLoop loop = getRunningLoop();
                List<Map<String, Object>> reported = Collections.synchronizedList(new ArrayList<>());
                loop.setExceptionHandler((l, context) -> reported.add(context));
                Server server = Streams.startServer(loop, EchoServerCommand::echoStream, "127.0.0.1", 0,
                        ServerOptions.defaults(), StreamReader.DEFAULT_LIMIT);
                int port = ((InetSocketAddress) server.addresses().getFirst()).getPort();
                List<Thread> clients = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    clients.add(startClient(() -> echoThenReset(port)));
                }
                while (clients.stream().anyMatch(Thread::isAlive)) {
                    sleep(0.01);
                }
                server.close();
                server.waitClosed(); // every handler has ended
                assertEquals(List.of(), clientFailures);
                assertEquals(List.of(), reported);
                return null;
            });
        }
    }

    private static void echoThenReset(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.getOutputStream().write("hello".getBytes());
            assertEquals("hello", new String(s.getInputStream().readNBytes(5)));
            s.setSoLinger(true, 0); // close() sends RST
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}
