package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** asyncio's sock_recvfrom, sock_recvfrom_into and sock_sendto on real loopback datagram sockets. */
@Timeout(20)
@EveryLoop
@EveryEngine
class DatagramSocketsTest {

    private static DatagramChannel bound() throws java.io.IOException {
        DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET);
        c.configureBlocking(false);
        c.bind(new InetSocketAddress("127.0.0.1", 0));
        return c;
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aWaitingReceiverGetsEachDatagramWithItsSender(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            EventLoop loop = getRunningLoop();
            try (DatagramChannel a = bound(); DatagramChannel b = bound()) {
                Task<Sockets.Datagram> first = createTask(() -> Sockets.sockRecvfrom(loop, a, 100));
                sleep(0.01);
                assertFalse(first.isDone(), "nothing was sent yet: the receive must wait");
                assertEquals(5, Sockets.sockSendto(loop, b, "hello".getBytes(), a.getLocalAddress()));
                Sockets.Datagram got = await(first);
                assertArrayEquals("hello".getBytes(), got.data());
                assertEquals(b.getLocalAddress(), got.address());

                Sockets.sockSendto(loop, b, "0123456789".getBytes(), a.getLocalAddress());
                ByteBuffer into = ByteBuffer.allocate(64).position(3);
                Sockets.ReceivedFrom r = Sockets.sockRecvfromInto(loop, a, into);
                assertEquals(10, r.count());
                assertEquals(13, into.position());
                assertEquals(b.getLocalAddress(), r.address());

                Sockets.sockSendto(loop, b, "truncated!".getBytes(), a.getLocalAddress());
                assertArrayEquals("trunc".getBytes(), Sockets.sockRecvfrom(loop, a, 5).data(), "cut as the kernel cuts it");
            }
            return null;
        });
    }
}
