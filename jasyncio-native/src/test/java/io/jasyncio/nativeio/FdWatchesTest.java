package io.jasyncio.nativeio;

import io.jasyncio.loop.spi.ChannelFds;
import io.jasyncio.loop.spi.Poller;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.Pipe;
import java.nio.channels.SelectableChannel;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The shared bookkeeping of the native pollers, over real pipe fds (no kernel watch: that is each poller's). */
class FdWatchesTest {
    private static final int READ = Poller.READ;
    private static final int WRITE = Poller.WRITE;
    private static final int POLLIN = 0x001;
    private static final int POLLOUT = 0x004;
    private static final int POLLERR = 0x008;
    private static final int POLLHUP = 0x010;

    private final FdWatches<Watch> watches = new FdWatches<>(Watch[]::new);
    private final List<Pipe> pipes = new ArrayList<>();

    static final class Watch extends FdWatch {
        Watch(SelectableChannel channel) {
            super(channel);
        }
    }

    @AfterEach
    void closePipes() throws IOException {
        for (Pipe p : pipes) {
            p.source().close();
            p.sink().close();
        }
    }

    private Pipe.SourceChannel source() throws IOException {
        Pipe p = Pipe.open();
        pipes.add(p);
        return p.source();
    }

    @Test
    void aFirstInterestWatchesTheChannelsFdAndMakesItNonBlocking() throws IOException {
        Pipe.SourceChannel channel = source();
        Watch watch = new Watch(channel);
        assertEquals(-1, watch.fd());
        assertEquals(FdWatches.UNCHANGED, watches.setInterest(watch, 0), "no interest, nothing to watch");
        assertFalse(watch.isWatched());
        assertEquals(0, watches.size());

        assertEquals(FdWatches.ADDED, watches.setInterest(watch, READ));
        assertTrue(watch.isWatched());
        assertEquals(ChannelFds.fdOf(channel), watch.fd());
        assertEquals(READ, watch.ops());
        assertFalse(channel.isBlocking());
        assertSame(watch, watches.get(watch.fd()));
        assertSame(watch, watches.ofChannel(channel));
        assertNull(watches.replaced());
        assertEquals(1, watches.size());
        assertTrue(watches.capacity() > watch.fd());
    }

    @Test
    void anInterestChangeSaysWhatTheKernelIsToBeToldAndZeroTakesTheWatchOut() throws IOException {
        Watch watch = new Watch(source());
        watches.setInterest(watch, READ);
        int fd = watch.fd();
        assertEquals(FdWatches.UNCHANGED, watches.setInterest(watch, READ), "the same interest");
        assertEquals(FdWatches.CHANGED, watches.setInterest(watch, READ | WRITE));
        assertEquals(READ | WRITE, watch.ops());
        assertEquals(FdWatches.REMOVED, watches.setInterest(watch, 0));
        assertFalse(watch.isWatched());
        assertEquals(0, watch.ops());
        assertEquals(fd, watch.fd(), "the fd stays known, to tell the kernel");
        assertNull(watches.get(fd));
        assertEquals(0, watches.size());
        assertEquals(FdWatches.ADDED, watches.setInterest(watch, WRITE), "watched again");
        assertSame(watch, watches.get(fd));
    }

    @Test
    void aChannelFoundClosedLeavesTheTableAndOnlyMoreInterestFails() throws IOException {
        Pipe.SourceChannel channel = source();
        Watch watch = new Watch(channel);
        watches.setInterest(watch, READ | WRITE);
        channel.close();
        assertEquals(FdWatches.CLOSED, watches.setInterest(watch, READ));
        assertFalse(watch.isWatched());
        assertEquals(0, watches.size());
        assertEquals(READ | WRITE, watch.ops(), "what it had stays, to judge the request");
        FdWatches.refuseMoreThanItHad(watch, READ); // less: quiet
        FdWatches.refuseMoreThanItHad(watch, 0);
        Watch reader = new Watch(source());
        watches.setInterest(reader, READ);
        reader.channel().close();
        assertEquals(FdWatches.CLOSED, watches.setInterest(reader, READ | WRITE));
        assertThrows(ClosedChannelException.class, () -> FdWatches.refuseMoreThanItHad(reader, READ | WRITE));
        // never watched, closed: its fd number may be another file's, so it is not read
        Pipe.SourceChannel closed = source();
        closed.close();
        assertThrows(ClosedChannelException.class, () -> watches.setInterest(new Watch(closed), READ));
        assertEquals(0, watches.size());
    }

    @Test
    void aReadinessReportForAClosedChannelIsDroppedAndForgetsIt() throws IOException {
        Pipe.SourceChannel channel = source();
        Watch watch = new Watch(channel);
        watches.setInterest(watch, READ);
        assertFalse(watches.forgetIfClosed(watch), "open: kept");
        assertTrue(watch.isWatched());
        channel.close();
        assertTrue(watches.forgetIfClosed(watch));
        assertFalse(watch.isWatched());
        assertNull(watches.get(watch.fd()));
        assertEquals(0, watches.size());
    }

    @Test
    void aNewChannelOnAClosedOnesFdTakesTheSlotOverAndTheOldOneCannotTakeItBack() throws IOException {
        Pipe first = Pipe.open();
        Watch old = new Watch(first.source());
        watches.setInterest(old, READ);
        int fd = old.fd();
        first.source().close();
        first.sink().close();
        // The kernel hands out the lowest free number: a new pipe's read end gets the old one's fd.
        Pipe.SourceChannel reuser = source();
        assumeTrue(ChannelFds.fdOf(reuser) == fd, "the new pipe got fd " + ChannelFds.fdOf(reuser) + ", not " + fd);
        Watch fresh = new Watch(reuser);
        assertEquals(FdWatches.ADDED, watches.setInterest(fresh, WRITE));
        assertSame(old, watches.replaced(), "the old watch lost its slot");
        assertTrue(old.isWatched(), "left for its poller to release");
        assertSame(fresh, watches.get(fd));
        assertNull(watches.ofChannel(first.source()), "the closed channel's watch is not found by its number");
        assertEquals(1, watches.size());
        watches.forget(old); // a poller releasing it: the new one keeps the slot
        assertFalse(old.isWatched());
        assertSame(fresh, watches.get(fd));
        assertEquals(1, watches.size());
    }

    @Test
    void readinessIsReadAsAsyncioSelectorsReadItWithinTheInterest() throws IOException {
        Watch watch = new Watch(source());
        watches.setInterest(watch, READ | WRITE);
        assertEquals(READ, watch.readyOps(POLLIN));
        assertEquals(WRITE, watch.readyOps(POLLOUT));
        assertEquals(READ | WRITE, watch.readyOps(POLLIN | POLLOUT));
        assertEquals(READ | WRITE, watch.readyOps(POLLERR), "an error wakes both sides");
        assertEquals(READ | WRITE, watch.readyOps(POLLHUP), "a hang-up wakes both sides");
        assertEquals(0, watch.readyOps(0));
        watches.setInterest(watch, WRITE);
        assertEquals(0, watch.readyOps(POLLIN), "only what was asked for");
        assertEquals(WRITE, watch.readyOps(POLLHUP));
        watches.setInterest(watch, READ);
        assertEquals(0, watch.readyOps(POLLOUT));
        assertEquals(READ, watch.readyOps(POLLERR | POLLOUT));
    }

    @Test
    void clearForgetsEveryWatch() throws IOException {
        Watch a = new Watch(source());
        Watch b = new Watch(source());
        watches.setInterest(a, READ);
        watches.setInterest(b, WRITE);
        assertEquals(2, watches.size());
        watches.clear();
        assertEquals(0, watches.size());
        assertNull(watches.get(a.fd()));
        assertNull(watches.get(b.fd()));
    }
}
