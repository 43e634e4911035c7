package io.jasyncio.loop.spi;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link Poller} promises the loop, run against each one by a subclass that makes it
 * ({@code NioPollerContractTest} here, {@code EpollPollerContractTest} in jasyncio-epoll): readiness
 * only once it is there, both interests in one event, interest 0 stops reporting, timeouts that
 * never end early, and wake-ups that end a select, from this thread or another. Waits that stand
 * for "forever" are bounded (10 s); a broken wake-up fails on the timeout, on a thread it abandons.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public abstract class PollerContract<R extends IoRegistration> {
    private static final long FOREVER = TimeUnit.SECONDS.toNanos(10);
    private static final long SHORT = TimeUnit.MILLISECONDS.toNanos(30);

    private Poller<R> poller;
    private final List<AutoCloseable> channels = new ArrayList<>();

    /** A new poller of the implementation under test. */
    protected abstract Poller<R> newPoller() throws IOException;

    @BeforeEach
    void open() throws IOException {
        poller = newPoller();
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : channels) {
            c.close();
        }
        poller.close();
    }

    @Test
    void selectZeroReportsNothingWhenNothingIsReady() throws IOException {
        Pipe pipe = pipe();
        R reg = poller.newRegistration(pipe.source());
        poller.setInterest(reg, Poller.READ);
        assertEquals(List.of(), select(0));
    }

    @Test
    void aTimeoutIsWaitedInFullNeverCutShort() throws IOException {
        long start = System.nanoTime();
        assertEquals(List.of(), select(SHORT));
        assertTrue(System.nanoTime() - start >= SHORT, "select woke before its timeout");
    }

    @Test
    void readInterestReportsAChannelOnceItHasData() throws IOException {
        Pipe pipe = pipe();
        R reg = poller.newRegistration(pipe.source());
        poller.setInterest(reg, Poller.READ);
        assertSame(reg, poller.registrationOf(pipe.source()));
        pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        assertEquals(List.of(new Event(reg, Poller.READ)), select(FOREVER));
        assertEquals(List.of(new Event(reg, Poller.READ)), select(0), "still readable: reported again (level-triggered)");
    }

    @Test
    void writeInterestReportsAWritableChannelAtOnce() throws IOException {
        Pipe pipe = pipe();
        R reg = poller.newRegistration(pipe.sink());
        poller.setInterest(reg, Poller.WRITE);
        assertEquals(List.of(new Event(reg, Poller.WRITE)), select(FOREVER));
    }

    @Test
    void bothInterestsOfOneChannelArriveAsOneEvent() throws IOException {
        SocketChannel[] pair = socketPair();
        pair[1].write(ByteBuffer.wrap(new byte[] {1}));
        R reg = poller.newRegistration(pair[0]);
        poller.setInterest(reg, Poller.READ | Poller.WRITE);
        List<Event> events = select(FOREVER);
        if (events.equals(List.of(new Event(reg, Poller.WRITE)))) {
            events = select(FOREVER); // the byte was still on its way
        }
        assertEquals(List.of(new Event(reg, Poller.READ | Poller.WRITE)), events);
    }

    @Test
    void interestZeroStopsReportingAndANewInterestResumes() throws IOException {
        Pipe pipe = pipe();
        R reg = poller.newRegistration(pipe.source());
        poller.setInterest(reg, Poller.READ);
        pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        assertEquals(1, select(FOREVER).size());
        poller.setInterest(reg, 0);
        assertEquals(List.of(), select(0));
        poller.setInterest(reg, Poller.READ);
        assertEquals(List.of(new Event(reg, Poller.READ)), select(FOREVER));
    }

    @Test
    void aWakeupBeforeSelectEndsItAtOnceAndIsConsumed() throws IOException {
        poller.wakeup();
        long start = System.nanoTime();
        assertEquals(List.of(), select(FOREVER));
        assertTrue(System.nanoTime() - start < FOREVER / 2, "the pending wake-up did not end the select");
        start = System.nanoTime();
        select(SHORT);
        assertTrue(System.nanoTime() - start >= SHORT, "the wake-up was not consumed: the next select did not wait");
    }

    @Test
    void aWakeupFromAnotherThreadEndsASelectWithNoTimeout() throws Exception {
        Thread waker = Thread.ofPlatform().daemon().start(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
            poller.wakeup();
        });
        assertEquals(List.of(), select(-1)); // the class timeout catches a lost wake-up
        waker.join();
    }

    /** One readiness report. */
    record Event(IoRegistration registration, int ops) {
    }

    /**
     * A listener the loop stops watching, then closes (a server closing), refuses connections at
     * once, as asyncio's does: not only after the poller's next turn, which would first complete
     * handshakes into its backlog and then reset them (NIO defers closing a channel registered
     * with a selector; an armed io_uring poll holds the listener's file).
     */
    @Test
    void aListenerNoLongerWatchedIsClosedAtOnce() throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            R registration = poller.newRegistration(listener);
            poller.setInterest(registration, Poller.READ);
            select(0); // watched for real (registered, or its poll submitted)
            poller.setInterest(registration, 0);
            listener.close();
            assertThrows(ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
        }
    }

    private List<Event> select(long timeoutNanos) throws IOException {
        List<Event> events = new ArrayList<>();
        int n = poller.select(timeoutNanos, (reg, ops) -> events.add(new Event(reg, ops)));
        assertEquals(events.size(), n, "select returns the number of events it reported");
        return events;
    }

    private Pipe pipe() throws IOException {
        Pipe pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        pipe.sink().configureBlocking(false);
        channels.add(pipe.source());
        channels.add(pipe.sink());
        return pipe;
    }

    private SocketChannel[] socketPair() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            SocketChannel client = SocketChannel.open(server.getLocalAddress());
            SocketChannel accepted = server.accept();
            channels.add(client);
            channels.add(accepted);
            client.configureBlocking(false);
            accepted.configureBlocking(false);
            return new SocketChannel[] {client, accepted};
        }
    }
}
