package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(30)
@EveryLoop
@EveryEngine
class SocketsTest {

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void sockCoroutinesRoundTrip(String loopName) {
        byte[] big = NetTesting.pattern(4 << 20, 9);
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            try (ServerSocketChannel listener = ServerSocketChannel.open();
                 SocketChannel client = SocketChannel.open()) {
                listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                listener.configureBlocking(false);
                client.configureBlocking(false);
                Task<SocketChannel> accepting = createTask(() -> Sockets.sockAccept(loop, listener));
                Sockets.sockConnect(loop, client, listener.getLocalAddress());
                try (SocketChannel served = await(accepting)) {
                    Task<Void> sending = createTask(() -> {
                        Sockets.sockSendall(loop, client, big); // far more than the socket buffer: waits
                        client.shutdownOutput();
                    });
                    ByteBuffer into = ByteBuffer.allocate(big.length + 10);
                    int n;
                    int reads = 0;
                    while ((n = Sockets.sockRecvInto(loop, served, into)) > 0) {
                        reads++;
                    }
                    assertEquals(0, n, "EOF reads as 0 bytes, after " + reads + " reads");
                    await(sending);
                    assertEquals(big.length, into.position());
                    assertArrayEquals(big, java.util.Arrays.copyOf(into.array(), big.length));
                    Sockets.sockSendall(loop, served, "pong".getBytes());
                    assertArrayEquals("pong".getBytes(), Sockets.sockRecv(loop, client, 100));
                    served.shutdownOutput();
                    assertEquals(0, Sockets.sockRecv(loop, client, 100).length); // EOF: empty
                }
            }
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void blockingChannelsAreRefused(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            try (SocketChannel blocking = SocketChannel.open()) {
                var e = assertThrows(IllegalArgumentException.class,
                        () -> Sockets.sockRecv(getRunningLoop(), blocking, 1));
                assertEquals("the socket must be non-blocking", e.getMessage());
            }
            return null;
        });
    }

    /** Channels made elsewhere become transports: connectAccepted (server side), createConnection(channel). */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void existingChannelsAreWrapped(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            try (ServerSocketChannel listener = ServerSocketChannel.open()) {
                listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                listener.configureBlocking(false);
                SocketChannel client = SocketChannel.open();
                client.configureBlocking(false);
                Task<SocketChannel> accepting = createTask(() -> Sockets.sockAccept(loop, listener));
                Sockets.sockConnect(loop, client, listener.getLocalAddress());
                var served = Network.connectAccepted(loop, NetTesting.EchoProtocol::new, await(accepting), null);
                var c = Network.createConnection(loop, () -> new NetTesting.RecordingProtocol(loop, false), client, null);
                assertEquals(client, c.transport().getExtraInfo("socket"));
                c.protocol().expected = 7;
                c.transport().write("wrapped".getBytes());
                await(c.protocol().gotExpected);
                assertEquals("wrapped", c.protocol().received.toString());
                c.transport().close();
                await(c.protocol().lost);
                served.transport().close();
            }
            return null;
        });
    }
}
