package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.Random;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.openConnection;
import static io.jasyncio.Asyncio.sleep;
import static io.jasyncio.Asyncio.startServer;
import static io.jasyncio.task.Tasks.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link StreamReader} of bulk data lends the transport the free room in its buffer
 * ({@link LendingProtocol}), and the bytes are read straight there: at once by the readiness
 * transport, by a receive that completes later on a proactor loop, which the kernel may fill at
 * any moment while the reader's task reads, views and compacts. On every loop, every byte is
 * checked against a {@link CounterStream}, so a byte written into the wrong place, counted twice,
 * or a room moved under the transport shows up at its position.
 */
@Timeout(90)
@EveryLoop
@EveryEngine
class LentRoomTest {
    /** Checks {@code data}'s bytes from its position to its limit against the counter from {@code at}; returns the position after them. */
    static long check(ByteBuffer data, long at) {
        for (int i = data.position(); i < data.limit(); i++, at++) {
            if (data.get(i) != CounterStream.byteAt(at)) {
                throw new AssertionError("wrong byte at position " + at);
            }
        }
        return at;
    }

    static long check(byte[] data, long at) {
        return check(ByteBuffer.wrap(data), at);
    }

    /**
     * 16 MiB through a reader that reads at random: views, readinto heap and direct buffers,
     * readexactly, naps that let the buffer fill past its limit (the reader pauses the
     * transport), and pauses by hand (on a proactor loop, some while a receive into the reader is
     * in flight). Every byte arrives once, in order, and most arrive in the lent room.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aCounterStreamArrivesWholeThroughRandomReadsAndPauses(String loopName) {
        long total = 16L << 20;
        NetTesting.run(loopName, 80, () -> {
            EventLoop loop = getRunningLoop();
            Future<long[]> outcome = loop.createFuture(); // bytes checked, pauses with a receive in flight
            StreamReader[] serverReader = new StreamReader[1];
            boolean[] proactor = new boolean[1];
            Server server = startServer((reader, writer) -> {
                try {
                    serverReader[0] = reader;
                    Transport t = writer.transport();
                    proactor[0] = t instanceof ProactorSocketTransport;
                    outcome.setResult(readAtRandom(reader, t, total, new Random(19)));
                } catch (Throwable e) {
                    outcome.setException(e);
                }
                writer.close();
            }, "127.0.0.1", 0);
            StreamConnection c = openConnection("127.0.0.1", NetTesting.port(server));
            Random sizes = new Random(17);
            for (long at = 0; at < total; ) {
                int n = (int) Math.min(total - at, 4 * (1 + sizes.nextInt(64 * 1024)));
                c.writer().write(CounterStream.chunk(at, n));
                at += n;
                c.writer().drain();
            }
            c.writer().writeEof();
            long[] got = await(outcome);
            assertEquals(total, got[0]);
            if (proactor[0]) {
                assertTrue(got[1] > 0, "no pause came while a receive into the reader was in flight");
            }
            long inPlace = serverReader[0].bytesReceivedInPlace();
            assertTrue(inPlace > total / 2, "only " + inPlace + " of " + total + " bytes were received in place");
            NetTesting.closeAll(c, server);
            return null;
        });
    }

    /** Reads {@code total} bytes of the counter stream at random (see above); returns them and the pauses made with a receive in flight. */
    private static long[] readAtRandom(StreamReader reader, Transport t, long total, Random rnd) throws Exception {
        ByteBuffer heap = ByteBuffer.allocate(200_000);
        ByteBuffer direct = ByteBuffer.allocateDirect(200_000);
        long at = 0;
        long pausesInFlight = 0;
        while (at < total) {
            int n = 1 + rnd.nextInt(150_000);
            switch (rnd.nextInt(6)) {
                case 0 -> at = check(reader.readView(n), at);
                case 1 -> {
                    heap.clear().limit(n);
                    assertTrue(reader.readinto(heap) > 0, "EOF at " + at);
                    at = check(heap.flip(), at);
                }
                case 2 -> {
                    direct.clear().limit(n);
                    assertTrue(reader.readinto(direct) > 0, "EOF at " + at);
                    at = check(direct.flip(), at);
                }
                case 3 -> at = check(reader.readexactly((int) Math.min(n, total - at)), at);
                case 4 -> {
                    sleep(0.001); // on a proactor loop, the receive into the reader's room reaches the kernel meanwhile
                    if (t instanceof ProactorSocketTransport p && p.receiveInFlight()) {
                        pausesInFlight++;
                    }
                    t.pauseReading();
                    sleep(0.002);
                    t.resumeReading();
                }
                default -> sleep(0.001); // the buffer fills past 2 x limit: the reader pauses the transport
            }
        }
        assertEquals(0, reader.read(1).length, "bytes after the end");
        assertTrue(reader.atEof());
        return new long[] {at, pausesInFlight};
    }

    /**
     * The reader's side of a lend, without a socket: what a read writes into the lent room
     * becomes the reader's next bytes, wherever the reader's unread bytes went meanwhile (a
     * proactor's receive completes after the reader's task ran).
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aLentRoomIsNeitherMovedNorWrittenByTheReader(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            // read empty while lent: the reader rewinds to the start, the bytes are where they landed
            StreamReader reader = new StreamReader(getRunningLoop());
            reader.feedData(CounterStream.chunk(0, 40_000)); // direct from here on
            assertEquals(39_990, check(reader.readView(39_990), 0));
            ByteBuffer room = reader.lendRoom();
            assertNotNull(room);
            assertTrue(room.isDirect() && room.remaining() >= StreamReader.DIRECT_FROM, room.toString());
            assertEquals(40_000, check(reader.readView(10), 39_990)); // empty now
            room.put(0, CounterStream.chunk(40_000, 8000), 0, 8000); // the kernel's write
            reader.lentRoomFilled(room, 8000);
            assertEquals(48_000, check(reader.readView(100_000), 40_000));

            // fed meanwhile: the fed bytes come first, and the room's bytes are neither overwritten nor lost
            ByteBuffer room2 = reader.lendRoom();
            assertNotNull(room2);
            room2.put(0, CounterStream.chunk(52_000, 8000), 0, 8000); // the kernel writes before the feed
            reader.feedData(CounterStream.chunk(48_000, 4000));
            room2.put(0, CounterStream.chunk(52_000, 8000), 0, 8000); // and may write again after it
            reader.lentRoomFilled(room2, 8000);
            assertEquals(60_000, check(reader.readexactly(12_000), 48_000));

            // returned unfilled: nothing of the room arrives
            ByteBuffer room3 = reader.lendRoom();
            reader.lentRoomReturned(room3);
            reader.feedData(CounterStream.chunk(60_000, 4));
            assertEquals(60_004, check(reader.readView(10), 60_000));

            // lent with unread bytes before it: the filled room's bytes follow them
            reader.feedData(CounterStream.chunk(60_004, 40_000));
            assertEquals(60_104, check(reader.readView(100), 60_004));
            ByteBuffer room4 = reader.lendRoom();
            room4.put(0, CounterStream.chunk(100_004, 5000), 0, 5000);
            reader.lentRoomFilled(room4, 5000);
            assertEquals(105_004, check(reader.readexactly(44_900), 60_104));
            assertEquals(8000 + 5000, reader.bytesReceivedInPlace(), "in place: the rooms not left by a feed (that one's bytes were copied)");
            return null;
        });
    }

    /**
     * A read that fills the lent room may have left bytes in the socket (a 100 KiB message into a
     * 64 KiB room: two receives and two writes of an echo, issue 28): the next room is twice as
     * big, up to {@link StreamReader#MOST_ROOM}; a read that leaves room keeps the size.
     */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aRoomFilledToTheBrimIsFollowedByABiggerOne(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            StreamReader reader = new StreamReader(getRunningLoop());
            reader.feedData(CounterStream.chunk(0, 64 * 1024)); // direct from here on
            long at = check(reader.readView(Integer.MAX_VALUE), 0);
            int last = 0;
            for (int i = 0; i < 8; i++) {
                ByteBuffer room = reader.lendRoom();
                int size = room.remaining();
                assertTrue(size > last || size == StreamReader.MOST_ROOM, "room " + i + ": " + size + " after " + last);
                room.put(0, CounterStream.chunk(at, size), 0, size);
                reader.lentRoomFilled(room, size);
                at = check(reader.readView(Integer.MAX_VALUE), at);
                last = size;
            }
            assertEquals(StreamReader.MOST_ROOM, last);
            ByteBuffer room = reader.lendRoom();
            room.put(0, CounterStream.chunk(at, 1000), 0, 1000);
            reader.lentRoomFilled(room, 1000);
            at = check(reader.readView(Integer.MAX_VALUE), at);
            assertEquals(StreamReader.MOST_ROOM, reader.lendRoom().remaining(), "a room not filled keeps its size");
            return null;
        });
    }
}
