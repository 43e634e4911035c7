package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over TLS: buffered data survives close(), small write-buffer limits pause and resume the
 * application's protocol, abort() drops what is buffered. The peer reads nothing until resumed.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class TlsBufferedDataTest {
    private static final int CHUNK = 16 * 1024;

    static TestCertificates certs;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certs = TestCertificates.shared();
    }

    private static CounterStream.Link connectToPausedPeer(EventLoop loop) throws Exception {
        Future<CounterStream.PausedReceiver> accepted = loop.createFuture();
        Server server = Network.createServer(loop, CounterStream.pausedReceivers(loop, accepted), List.of("127.0.0.1"), 0,
                ServerOptions.defaults().withTls(TlsOptions.of(certs.server)));
        var c = Network.createConnection(loop, () -> new CounterStream.Sender(loop), "127.0.0.1", NetTesting.port(server),
                ConnectOptions.defaults().withTls(TlsOptions.of(certs.trustingClient)));
        return new CounterStream.Link(server, c, await(accepted));
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void closeDeliversEveryBufferedByteThenEof(String loopName) {
        long atLeast = 4 << 20;
        NetTesting.run(loopName, 50, () -> {
            List<Map<String, Object>> errors = NetTesting.captureErrors();
            CounterStream.Link p = connectToPausedPeer(getRunningLoop());
            p.client().transport().setWriteBufferLimits(16 * 1024); // small: the writer is paused at once
            long total = p.fill(atLeast);
            Transport t = p.client().transport();
            assertEquals(1, p.client().protocol().pauses);
            t.close();
            assertTrue(t.isClosing());
            assertEquals(total, p.resumePeerUntilEof(), "bytes the peer got before close_notify");
            assertNull(await(p.client().protocol().lost));
            assertEquals(List.of(), errors);
            NetTesting.closeServer(p.server());
            return null;
        });
    }

    /** A sender that honours pause/resume, with limits far below the defaults, into a stalled peer. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void smallWriteBufferLimitsPauseAndResumeTheProtocol(String loopName) {
        long total = 1 << 20;
        int high = 32 * 1024;
        int low = 8 * 1024;
        NetTesting.run(loopName, 50, () -> {
            EventLoop loop = getRunningLoop();
            List<Map<String, Object>> errors = NetTesting.captureErrors();
            CounterStream.Link p = connectToPausedPeer(loop);
            CounterStream.Sender sender = p.client().protocol();
            Transport t = p.client().transport();
            t.setWriteBufferLimits(high, low);
            // A small kernel send buffer, so that the stalled peer stalls this writer within 1 MiB.
            ((SocketChannel) t.getExtraInfo("socket")).setOption(StandardSocketOptions.SO_SNDBUF, 32 * 1024);
            assertArrayEquals(new int[] {high, low}, t.getWriteBufferLimits());
            long[] sent = {0};
            long[] maxBuffered = {0};
            Future<Void> allSent = loop.createFuture();
            Runnable pump = () -> {
                while (!sender.paused && sent[0] < total) {
                    t.write(CounterStream.chunk(sent[0], CHUNK));
                    sent[0] += CHUNK;
                    maxBuffered[0] = Math.max(maxBuffered[0], t.getWriteBufferSize());
                }
                if (sent[0] == total && !allSent.isDone()) {
                    allSent.setResult(null);
                }
            };
            sender.onResume = pump;
            pump.run();
            assertEquals(1, sender.pauses, "the stalled peer paused the writer");
            assertTrue(sent[0] < total, "the writer stopped when paused: sent " + sent[0]);
            sleep(0.05);
            assertTrue(sender.paused, "still paused while the peer reads nothing");
            allSent.addDoneCallback(f -> t.close());
            assertEquals(total, p.resumePeerUntilEof());
            assertTrue(sender.resumes > 0, "resumed when the buffer drained");
            // One write's record beyond the high-water mark at most (the mark is checked per write).
            assertTrue(maxBuffered[0] <= high + CHUNK + 1024, "buffered " + maxBuffered[0] + " bytes with high=" + high);
            assertNull(await(sender.lost));
            assertEquals(List.of(), errors);
            NetTesting.closeServer(p.server());
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void bufferLimitsAreCheckedAndTheSizeCountsWhatWaits(String loopName) {
        NetTesting.run(loopName, 30, () -> {
            CounterStream.Link p = connectToPausedPeer(getRunningLoop());
            Transport t = p.client().transport();
            assertArrayEquals(new int[] {Transport.DEFAULT_HIGH_WATER, Transport.DEFAULT_LOW_WATER}, t.getWriteBufferLimits());
            t.setWriteBufferLimits(1000);
            assertArrayEquals(new int[] {1000, 250}, t.getWriteBufferLimits());
            var e = assertThrows(IllegalArgumentException.class, () -> t.setWriteBufferLimits(10, 20));
            assertEquals("high (10) must be >= low (20) must be >= 0", e.getMessage());
            assertEquals(0, t.getWriteBufferSize());
            CounterStream.writeBeyondTheKernel(t, 4 << 20);
            assertTrue(t.getWriteBufferSize() > 0, "what the kernel did not take is counted");
            assertEquals(1, p.client().protocol().pauses);
            t.abort();
            p.peer().transport.abort();
            NetTesting.closeServer(p.server());
            return null;
        });
    }

    /** abort(): no close_notify, no flush; the protocol hears connectionLost(null) soon, once. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void abortDropsWhatIsBuffered(String loopName) {
        long atLeast = 4 << 20;
        NetTesting.run(loopName, 30, () -> {
            CounterStream.Link p = connectToPausedPeer(getRunningLoop());
            long total = p.fill(atLeast);
            Transport t = p.client().transport();
            t.abort();
            assertTrue(t.isClosing());
            t.write(new byte[100]); // a write after abort is dropped, not an error
            assertNull(await(p.client().protocol().lost));
            assertEquals(0, t.getWriteBufferSize());
            p.peer().transport.resumeReading();
            await(p.peer().lost);
            assertTrue(p.peer().received < total, "the peer got all " + total + " bytes: abort flushed the buffer");
            assertNull(p.peer().firstMismatch);
            NetTesting.closeServer(p.server());
            return null;
        });
    }
}
