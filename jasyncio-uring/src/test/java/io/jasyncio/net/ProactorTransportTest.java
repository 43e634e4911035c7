package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.testing.OpenFds;
import io.jasyncio.uring.IoUringPoller;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.toThread;
import static io.jasyncio.task.Tasks.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The io_uring loop's proactor transports on real loopback sockets: what only a completion-based
 * transport can get wrong. A receive in flight while reading is paused must hold its bytes; a
 * close must cancel the receive the kernel holds (or the socket outlives its fd, and the peer
 * never sees EOF); a peer's reset ends the connection once; dropped connections leave no
 * descriptor and no request behind.
 */
class ProactorTransportTest {
    private static final String LOOP = "io_uring";

    /** The server side of one connection: records what it hears. */
    static final class Recorder implements Protocol {
        final Future<Recorder> made;
        final Future<Throwable> lost;
        final StringBuilder got = new StringBuilder();
        Transport transport;
        int losses;
        boolean pauseAtOnce;

        Recorder(EventLoop loop, boolean pauseAtOnce) {
            this.made = loop.createFuture();
            this.lost = loop.createFuture();
            this.pauseAtOnce = pauseAtOnce;
        }

        @Override
        public void connectionMade(Transport transport) {
            this.transport = transport;
            if (pauseAtOnce) {
                transport.pauseReading();
            }
            made.setResult(this);
        }

        @Override
        public void dataReceived(ByteBuffer data) {
            got.append(StandardCharsets.US_ASCII.decode(data));
        }

        @Override
        public void connectionLost(Throwable exc) {
            losses++;
            if (!lost.isDone()) {
                lost.setResult(exc);
            }
        }
    }

    private static Server serverOf(EventLoop loop, boolean pauseAtOnce, Future<Recorder> first) throws IOException {
        return Network.createServer(loop, () -> {
            Recorder r = new Recorder(loop, pauseAtOnce);
            r.made.addDoneCallback(f -> {
                if (!first.isDone()) {
                    first.setResult(r);
                }
            });
            return r;
        }, "127.0.0.1", 0);
    }

    /** The io_uring poller under the running loop (this suite runs on io_uring only). */
    private static IoUringPoller uringPoller() {
        return assertInstanceOf(IoUringPoller.class, LoopContract.of(getRunningLoop()).backendFeature(IoUringPoller.class));
    }

    @Test
    void connectionsGetProactorTransportsWithAReceiveInFlight() {
        NetTesting.run(LOOP, 20, () -> {
            EventLoop loop = getRunningLoop();
            Future<Recorder> accepted = loop.createFuture();
            Server server = serverOf(loop, false, accepted);
            int before = uringPoller().requestsInFlight();
            Connection<Recorder> c = Network.createConnection(loop, () -> new Recorder(loop, false), "127.0.0.1",
                    NetTesting.port(server));
            Recorder peer = await(accepted);
            assertInstanceOf(ProactorSocketTransport.class, c.transport());
            assertInstanceOf(ProactorSocketTransport.class, peer.transport);
            sleep(0.01);
            assertEquals(before + 2, uringPoller().requestsInFlight(), "one receive per side");
            c.transport().write("ping".getBytes());
            while (peer.got.length() < 4) {
                sleep(0.005);
            }
            assertEquals("ping", peer.got.toString());
            c.transport().close();
            assertNull(await(peer.lost));
            assertNull(await(c.protocol().lost));
            sleep(0.01);
            assertEquals(before, uringPoller().requestsInFlight(), "the receives were cancelled or ended");
            NetTesting.closeServer(server);
            return null;
        });
    }

    /**
     * A reader that lets a little through every few milliseconds: every byte arrives in order,
     * and the writer, which writes only while not paused, is paused and never has more than one
     * chunk beyond the high-water mark outstanding (the send in flight counts).
     */
    @Test
    void aSlowReaderGetsEveryByteInOrderAndPausesTheWriter() {
        long total = 4L << 20;
        int chunk = 16 * 1024;
        NetTesting.run(LOOP, 30, () -> {
            EventLoop loop = getRunningLoop();
            Future<CounterStream.PausedReceiver> accepted = loop.createFuture();
            Server server = Network.createServer(loop, CounterStream.pausedReceivers(loop, accepted), "127.0.0.1", 0);
            Connection<CounterStream.Sender> c = Network.createConnection(loop, () -> new CounterStream.Sender(loop),
                    "127.0.0.1", NetTesting.port(server));
            CounterStream.PausedReceiver peer = await(accepted);
            CounterStream.Sender sender = c.protocol();
            Transport t = c.transport();
            // A small send buffer: writes go to the socket first, so without it loopback's
            // autotuned buffers could take all 4 MiB and the send path would never be used.
            ((SocketChannel) t.getExtraInfo("socket")).setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            long[] written = {0};
            long[] maxBuffered = {0};
            Runnable pump = () -> {
                while (!sender.paused && written[0] < total) {
                    t.write(CounterStream.chunk(written[0], chunk));
                    written[0] += chunk;
                    maxBuffered[0] = Math.max(maxBuffered[0], t.getWriteBufferSize());
                }
                if (written[0] == total) {
                    written[0]++;
                    t.writeEof();
                }
            };
            sender.onResume = pump;
            pump.run();
            Runnable[] trickle = new Runnable[1];
            trickle[0] = () -> {
                if (peer.eof.isDone()) {
                    return;
                }
                peer.transport.resumeReading();
                loop.callLater(0.001, peer.transport::pauseReading);
                loop.callLater(0.004, trickle[0]);
            };
            trickle[0].run();
            assertEquals(total, await(peer.eof), "bytes before EOF");
            assertNull(peer.firstMismatch);
            assertTrue(sender.pauses > 0 && sender.resumes > 0, sender.pauses + " pauses, " + sender.resumes + " resumes");
            assertTrue(maxBuffered[0] <= Transport.DEFAULT_HIGH_WATER + chunk, "buffered " + maxBuffered[0]);
            c.transport().close();
            NetTesting.closeServer(server);
            return null;
        });
    }

    /**
     * pauseReading cancels the receive; bytes that arrive meanwhile (in the socket, or in a
     * completion that beat the cancel) reach the protocol only after resumeReading.
     */
    @Test
    void pauseReadingHoldsWhatTheReceiveInFlightBrings() {
        NetTesting.run(LOOP, 20, () -> {
            EventLoop loop = getRunningLoop();
            Future<Recorder> accepted = loop.createFuture();
            Server server = serverOf(loop, false, accepted);
            Connection<Recorder> c = Network.createConnection(loop, () -> new Recorder(loop, false), "127.0.0.1",
                    NetTesting.port(server));
            Recorder peer = await(accepted);
            c.transport().write("first".getBytes());
            while (peer.got.length() < 5) {
                sleep(0.005);
            }
            peer.transport.pauseReading();
            c.transport().write("second".getBytes());
            sleep(0.2); // many loop turns: the receive in flight has completed by now
            assertEquals("first", peer.got.toString(), "nothing is delivered while reading is paused");
            peer.transport.resumeReading();
            while (peer.got.length() < 11) {
                sleep(0.005);
            }
            assertEquals("firstsecond", peer.got.toString());
            c.transport().close();
            await(peer.lost);
            NetTesting.closeServer(server);
            return null;
        });
    }

    /**
     * Our side closes while its receive is in flight: the kernel's request holds the socket past
     * the fd's close, so the peer sees EOF only if the close cancelled it.
     */
    @Test
    void closeWithAReceiveInFlightLetsThePeerSeeEof() {
        NetTesting.run(LOOP, 20, () -> {
            EventLoop loop = getRunningLoop();
            Future<Recorder> accepted = loop.createFuture();
            Server server = serverOf(loop, false, accepted);
            int port = NetTesting.port(server);
            Future<Integer> peerRead = loop.createFuture();
            Socket client = new Socket();
            client.connect(new InetSocketAddress("127.0.0.1", port));
            Recorder ours = await(accepted);
            sleep(0.01); // its receive is in the kernel now
            ours.transport.close();
            assertNull(await(ours.lost));
            client.setSoTimeout(5000);
            int read = toThread(() -> {
                try (InputStream in = client.getInputStream()) {
                    return in.read();
                }
            });
            assertEquals(-1, read, "the peer sees EOF");
            client.close();
            NetTesting.closeServer(server);
            return null;
        });
    }

    @Test
    void aPeersResetEndsTheConnectionOnceWithConnectionReset() {
        NetTesting.run(LOOP, 20, () -> {
            EventLoop loop = getRunningLoop();
            List<Map<String, Object>> errors = NetTesting.captureErrors();
            Future<Recorder> accepted = loop.createFuture();
            Server server = serverOf(loop, false, accepted);
            SocketChannel client = SocketChannel.open(new InetSocketAddress("127.0.0.1", NetTesting.port(server)));
            Recorder ours = await(accepted);
            sleep(0.01);
            client.setOption(StandardSocketOptions.SO_LINGER, 0);
            client.close(); // RST
            Throwable exc = await(ours.lost);
            assertInstanceOf(ConnectionResetException.class, exc);
            sleep(0.05);
            assertEquals(1, ours.losses);
            assertEquals(List.of(), errors);
            NetTesting.closeServer(server);
            return null;
        });
    }

    /**
     * More arrivals at once than the loop has provided buffers (128): the receives that find
     * none end with ENOBUFS and are asked for again, so every message still arrives.
     */
    @Test
    void moreArrivalsThanProvidedBuffersAllArrive() {
        int connections = 300;
        NetTesting.run(LOOP, 30, () -> {
            EventLoop loop = getRunningLoop();
            List<Recorder> accepted = new ArrayList<>();
            Server server = Network.createServer(loop, () -> {
                Recorder r = new Recorder(loop, false);
                accepted.add(r);
                return r;
            }, "127.0.0.1", 0);
            List<Connection<Recorder>> clients = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                clients.add(Network.createConnection(loop, () -> new Recorder(loop, false), "127.0.0.1", NetTesting.port(server)));
            }
            while (accepted.size() < connections) {
                sleep(0.005);
            }
            sleep(0.01); // every server-side receive is in the kernel
            for (int i = 0; i < connections; i++) {
                clients.get(i).transport().write(("message " + i).getBytes()); // all sent in one submission
            }
            for (Recorder r : accepted) {
                while (r.got.isEmpty()) {
                    sleep(0.005);
                }
                assertTrue(r.got.toString().startsWith("message "), r.got.toString());
            }
            clients.forEach(c -> c.transport().close());
            NetTesting.closeServer(server);
            return null;
        });
    }

    /** 1,000 connections, each dropped by its client or aborted by the server: no fd and no request is left. */
    @Test
    void droppedConnectionsLeaveNoDescriptorNorRequestBehind() {
        NetTesting.run(LOOP, 60, () -> {
            EventLoop loop = getRunningLoop();
            Future<Recorder> first = loop.createFuture();
            Server server = serverOf(loop, false, first);
            int port = NetTesting.port(server);
            sleep(0.01);
            long fdsBefore = OpenFds.count();
            int requestsBefore = uringPoller().requestsInFlight();
            List<Connection<Recorder>> batch = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                batch.add(Network.createConnection(loop, () -> new Recorder(loop, false), "127.0.0.1", port));
                if (batch.size() == 100) {
                    for (int j = 0; j < batch.size(); j++) {
                        Transport t = batch.get(j).transport();
                        t.write("x".getBytes());
                        if (j % 2 == 0) {
                            t.abort();
                        } else {
                            t.close();
                        }
                    }
                    for (Connection<Recorder> c : batch) {
                        await(c.protocol().lost);
                    }
                    batch.clear();
                }
            }
            server.close();
            server.waitClosed(); // every server-side connection has ended too
            sleep(0.05);
            assertEquals(requestsBefore, uringPoller().requestsInFlight(), "requests left in flight");
            long fdsAfter = OpenFds.count();
            assertTrue(fdsAfter <= fdsBefore, "open fds: " + fdsBefore + " before, " + fdsAfter + " after");
            return null;
        });
    }

}
