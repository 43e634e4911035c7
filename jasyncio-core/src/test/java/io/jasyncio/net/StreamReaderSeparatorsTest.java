package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code readuntil} with several separators, as asyncio 3.13's: the match that ends first wins. */
@Timeout(20)
@EveryLoop
@EveryEngine
class StreamReaderSeparatorsTest {

    private static List<byte[]> seps(String... separators) {
        return java.util.Arrays.stream(separators).map(String::getBytes).toList();
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void eachReadEndsAtWhicheverSeparatorComesFirst(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            StreamReader r = new StreamReader(getRunningLoop());
            r.feedData("line1\nline2\rline3\r\n".getBytes());
            assertEquals("line1\n", new String(r.readuntil(seps("\r", "\n"))));
            assertEquals("line2\r", new String(r.readuntil(seps("\n", "\r"))));
            assertEquals("line3\r\n", new String(r.readuntil(seps("\r\n", "\n"))));
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void theEarliestEndWinsNotTheEarliestStart(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            StreamReader r = new StreamReader(getRunningLoop());
            r.feedData("xabcd".getBytes());
            assertEquals("xabc", new String(r.readuntil(seps("abcd", "bc"))));
            assertEquals("d", new String(r.read(1)));
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void aSeparatorSplitAcrossFeedsIsFound(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            EventLoop loop = getRunningLoop();
            StreamReader r = new StreamReader(loop);
            r.feedData("ab<".getBytes());
            loop.callLater(0.01, () -> r.feedData("/end>tail".getBytes()));
            assertEquals("ab</end>", new String(r.readuntil(seps("</end>", "\n\n"))));
            sleep(0);
            r.feedEof();
            IncompleteReadException rest = assertThrows(IncompleteReadException.class, () -> r.readuntil(seps("!", "?")));
            assertArrayEquals("tail".getBytes(), rest.partial());
            return null;
        });
    }

    @ParameterizedTest
    @MethodSource("io.jasyncio.loop.LoopsUnderTest#names")
    void badSeparatorsAndTheLimitFailAsAsyncio(String loopName) {
        NetTesting.run(loopName, 10, () -> {
            StreamReader r = new StreamReader(getRunningLoop(), 8);
            assertThrows(IllegalArgumentException.class, () -> r.readuntil(List.of()));
            assertThrows(IllegalArgumentException.class, () -> r.readuntil(seps("\n", "")));
            r.feedData("0123456789abcdef\n".getBytes());
            LimitOverrunException over = assertThrows(LimitOverrunException.class, () -> r.readuntil(seps("\n", "\r\n")));
            assertEquals("Separator is found, but chunk is longer than limit", over.getMessage());
            return null;
        });
    }
}
