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
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A send the kernel refuses (a non-blocking send of 0 bytes: no room in the send buffer) is
 * queued, not dropped, as asyncio's datagram transport does: the datagram waits behind a writer
 * callback and goes out, in order, once the socket is writable. Loopback never runs out of send
 * buffer, so the sender refuses the first sends of a burst itself and otherwise sends for real on
 * the transport's own channel; the datagrams travel through the kernel to a real receiver.
 */
@EveryLoop
@EveryEngine
@Timeout(30)
class RefusedDatagramSendTest {
    private static final int BURST = 50;
    private static final int REFUSED = 3;

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRefusedSendIsQueuedAndEveryDatagramArrivesInOrder(String loopName) {
        NetTesting.run(loopName, 20, () -> {
            EventLoop loop = getRunningLoop();
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            var receiver = Network.createDatagramEndpoint(loop, () -> new UdpTest.Collector(loop, BURST), any, null, false);
            SocketAddress to = (SocketAddress) receiver.transport().getExtraInfo("sockname");

            DatagramChannel channel = DatagramChannel.open().bind(any);
            channel.configureBlocking(false);
            int[] refusals = {0};
            DatagramSocketTransport.Sender refusingAtFirst = (data, address) ->
                    refusals[0]++ < REFUSED ? 0 : channel.send(data, address);
            Future<Void> made = loop.createFuture();
            DatagramSocketTransport sender = new DatagramSocketTransport(loop, channel, new DatagramProtocol() {
            }, null, made, refusingAtFirst);
            await(made);

            List<String> sent = new ArrayList<>();
            for (int i = 0; i < BURST; i++) { // one callback's burst: the first send is refused, the rest queue behind it
                String text = "datagram " + i;
                sent.add(text);
                sender.sendto(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), to);
            }
            assertTrue(sender.getWriteBufferSize() > 0, "the refused datagram and those after it wait in the queue");
            for (int i = 0; i < 1000 && sender.getWriteBufferSize() > 0; i++) {
                sleep(0.001); // the socket is writable at once: the writer callback sends the queue in a few turns
            }
            assertEquals(0, sender.getWriteBufferSize(), "the queue was not sent: no writer callback retried it ("
                    + refusals[0] + " sends tried)");
            waitFor(receiver.protocol().all, 10.0);
            assertEquals(sent, receiver.protocol().got, "every datagram, in the order sent");
            assertTrue(refusals[0] > REFUSED, "the writer callback retried after the refusals: " + refusals[0]);
            sender.close();
            receiver.transport().close();
            return null;
        });
    }
}
