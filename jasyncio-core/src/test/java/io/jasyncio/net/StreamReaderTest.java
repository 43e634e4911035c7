package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(20)
@EveryLoop
@EveryEngine
class StreamReaderTest {

    private static void on(String loopName, ReaderBody body) {
        NetTesting.run(loopName, 10, () -> {
            body.run(getRunningLoop());
            return null;
        });
    }

    @FunctionalInterface
    interface ReaderBody {
        void run(EventLoop loop) throws Exception;
    }

    private static String s(byte[] b) {
        return new String(b);
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void eofInsideALineReturnsThePartialLineThenEmpty(String loopName) {
        on(loopName, loop -> {
            StreamReader r = new StreamReader(loop);
            r.feedData("one\ntw".getBytes());
            r.feedEof();
            assertEquals("one\n", s(r.readline()));
            assertFalse(r.atEof());
            assertEquals("tw", s(r.readline()));
            assertTrue(r.atEof());
            assertEquals("", s(r.readline()));
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void incompleteReadsCarryPartialAndExpected(String loopName) {
        on(loopName, loop -> {
            StreamReader r = new StreamReader(loop);
            r.feedData("abc".getBytes());
            r.feedEof();
            IncompleteReadException e = assertThrows(IncompleteReadException.class, () -> r.readexactly(10));
            assertEquals("abc", s(e.partial()));
            assertEquals(10, e.expected());
            assertEquals("3 bytes read on a total of 10 expected bytes", e.getMessage());

            StreamReader r2 = new StreamReader(loop);
            r2.feedData("no newline".getBytes());
            r2.feedEof();
            IncompleteReadException e2 = assertThrows(IncompleteReadException.class, () -> r2.readuntil("\n"));
            assertEquals("no newline", s(e2.partial()));
            assertNull(e2.expected());
            assertEquals("10 bytes read on a total of None expected bytes", e2.getMessage());
            assertTrue(r2.atEof());
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aLineOverTheLimitIsDroppedWithValueErrorAndReadingGoesOn(String loopName) {
        on(loopName, loop -> {
            StreamReader r = new StreamReader(loop, 10);
            r.feedData("0123456789ABCDEF\nshort\n".getBytes());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::readline);
            assertEquals("Separator is found, but chunk is longer than limit", e.getMessage());
            assertInstanceOf(LimitOverrunException.class, e.getCause());
            assertEquals("short\n", s(r.readline()));
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void readuntilOverTheLimitLeavesTheDataInPlace(String loopName) {
        on(loopName, loop -> {
            StreamReader r = new StreamReader(loop, 10);
            r.feedData("01234567890123456789".getBytes());
            LimitOverrunException e = assertThrows(LimitOverrunException.class, () -> r.readuntil("\n"));
            assertEquals("Separator is not found, and chunk exceed the limit", e.getMessage());
            assertEquals(20, e.consumed());
            assertEquals("01234567890123456789", s(r.read(100)));
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aSeparatorSplitAcrossReadsIsFound(String loopName) {
        on(loopName, loop -> {
            StreamReader r = new StreamReader(loop);
            Task<byte[]> reading = createTask(() -> r.readuntil("\r\n"));
            sleep(0);
            r.feedData("abc\r".getBytes());
            sleep(0);
            assertFalse(reading.isDone());
            r.feedData("\ndef".getBytes());
            assertEquals("abc\r\n", s(await(reading)));
            assertEquals("def", s(r.read(10)));
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void onlyOneReaderMayWait(String loopName) {
        on(loopName, loop -> {
            StreamReader r = new StreamReader(loop);
            Task<byte[]> first = createTask(r::readline);
            sleep(0);
            IllegalStateException e = assertThrows(IllegalStateException.class, r::readline);
            assertEquals("readuntil() called while another coroutine is already waiting for incoming data", e.getMessage());
            r.feedData("x\n".getBytes());
            assertEquals("x\n", s(await(first)));
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void anExceptionReachesTheWaitingReaderAndLaterReads(String loopName) {
        on(loopName, loop -> {
            StreamReader r = new StreamReader(loop);
            Task<byte[]> waiting = createTask(() -> r.readexactly(5));
            sleep(0);
            IOException reset = new ConnectionResetException("reset");
            r.setException(reset);
            assertSame(reset, assertThrows(IOException.class, () -> await(waiting)));
            assertSame(reset, assertThrows(IOException.class, () -> r.read(1)));
            assertSame(reset, r.exception());
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void argumentsAreCheckedAsAsyncioChecksThem(String loopName) {
        on(loopName, loop -> {
            assertEquals("Limit cannot be <= 0",
                    assertThrows(IllegalArgumentException.class, () -> new StreamReader(loop, 0)).getMessage());
            StreamReader r = new StreamReader(loop);
            assertEquals("readexactly size can not be less than zero",
                    assertThrows(IllegalArgumentException.class, () -> r.readexactly(-1)).getMessage());
            assertEquals("Separator should be at least one-byte string",
                    assertThrows(IllegalArgumentException.class, () -> r.readuntil(new byte[0])).getMessage());
            assertEquals(0, r.readexactly(0).length);
            assertEquals(0, r.read(0).length);
            r.feedEof();
            assertThrows(IllegalStateException.class, () -> r.feedData("late".getBytes()));
        });
    }

    /** Above twice the limit the transport stops reading; at the limit it reads again. */
    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aFullBufferPausesTheTransport(String loopName) {
        on(loopName, loop -> {
            List<String> calls = new ArrayList<>();
            StreamReader r = new StreamReader(loop, 10);
            r.setTransport(new RecordingTransport(calls));
            r.feedData(new byte[20]);
            assertEquals(List.of(), calls);
            r.feedData(new byte[1]);
            assertEquals(List.of("pause"), calls);
            r.read(5);
            assertEquals(List.of("pause"), calls);   // 16 left: still above the limit
            r.read(6);
            assertEquals(List.of("pause", "resume"), calls);
            assertArrayEquals(new byte[10], r.read(100));
        });
    }

    private record RecordingTransport(List<String> calls) implements Transport {
        @Override
        public void pauseReading() {
            calls.add("pause");
        }

        @Override
        public void resumeReading() {
            calls.add("resume");
        }

        @Override
        public void write(ByteBuffer data) {
        }

        @Override
        public void writeEof() {
        }

        @Override
        public boolean canWriteEof() {
            return true;
        }

        @Override
        public void abort() {
        }

        @Override
        public boolean isReading() {
            return true;
        }

        @Override
        public void setWriteBufferLimits(int high, int low) {
        }

        @Override
        public int[] getWriteBufferLimits() {
            return new int[] {0, 0};
        }

        @Override
        public long getWriteBufferSize() {
            return 0;
        }

        @Override
        public void close() {
        }

        @Override
        public boolean isClosing() {
            return false;
        }

        @Override
        public Object getExtraInfo(String name) {
            return null;
        }

        @Override
        public BaseProtocol getProtocol() {
            return null;
        }

        @Override
        public void setProtocol(BaseProtocol protocol) {
        }
    }
}
