package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(30)
@EveryLoop
@EveryEngine
class UdpTest {

    /** Sends every datagram back where it came from. */
    static final class UdpEcho implements DatagramProtocol {
        DatagramTransport transport;

        @Override
        public void connectionMade(DatagramTransport transport) {
            this.transport = transport;
        }

        @Override
        public void datagramReceived(ByteBuffer data, SocketAddress address) {
            transport.sendto(data, address);
        }
    }

    static final class Collector implements DatagramProtocol {
        final List<String> got = new ArrayList<>();
        final Future<Void> all;
        final Future<Throwable> lost;
        final int expected;

        Collector(EventLoop loop, int expected) {
            this.all = loop.createFuture();
            this.lost = loop.createFuture();
            this.expected = expected;
        }

        @Override
        public void datagramReceived(ByteBuffer data, SocketAddress address) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            got.add(new String(b));
            if (got.size() == expected) {
                all.setResult(null);
            }
        }

        @Override
        public void connectionLost(Throwable exc) {
            lost.setResult(exc);
        }
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void udpEcho(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            var server = Network.createDatagramEndpoint(loop, UdpEcho::new, any, null, false);
            SocketAddress serverAddress = (SocketAddress) server.transport().getExtraInfo("sockname");
            int n = 50;
            var client = Network.createDatagramEndpoint(loop, () -> new Collector(loop, n), null, serverAddress, false);
            assertEquals(serverAddress, client.transport().getExtraInfo("peername"));
            for (int i = 0; i < n; i++) {
                client.transport().sendto(("datagram " + i).getBytes());
            }
            await(client.protocol().all); // loopback does not drop 50 small datagrams
            for (int i = 0; i < n; i++) {
                assertEquals("datagram " + i, client.protocol().got.get(i));
            }
            assertThrows(IllegalArgumentException.class,
                    () -> client.transport().sendto("x".getBytes(), new InetSocketAddress("127.0.0.1", 9)));
            client.transport().close();
            assertNull(await(client.protocol().lost));
            server.transport().close();
            return null;
        });
    }
}
