package io.jasyncio.net;

import io.jasyncio.task.Task;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * However the bytes are cut into reads, readline / readuntil / readexactly return the same
 * pieces. A feeder task delivers the chunks one loop turn apart while a reader task reads; each
 * generated case runs on every loop implementation. Cases are seeded, so a failure names the seed
 * that reproduces it.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class StreamReaderPropertiesTest {

    static LongStream seeds() {
        return LongStream.range(0, 60);
    }

    /** Up to 300 bytes of 'a', 'b' and newlines: separators and line ends are common. */
    static byte[] text(Random random) {
        byte[] alphabet = {'a', 'b', '\n'};
        byte[] data = new byte[random.nextInt(301)];
        for (int i = 0; i < data.length; i++) {
            data[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return data;
    }

    /** Up to 12 cut points in 0..400. */
    static List<Integer> cuts(Random random) {
        List<Integer> cuts = new ArrayList<>();
        int n = random.nextInt(13);
        for (int i = 0; i < n; i++) {
            cuts.add(random.nextInt(401));
        }
        return cuts;
    }

    /** Splits {@code data} at the given cut points (taken modulo its length, sorted). */
    static List<byte[]> chunk(byte[] data, List<Integer> cuts) {
        List<Integer> at = new ArrayList<>();
        for (int c : cuts) {
            if (data.length > 0) {
                at.add(c % (data.length + 1));
            }
        }
        at.add(0);
        at.add(data.length);
        at.sort(Integer::compare);
        List<byte[]> chunks = new ArrayList<>();
        for (int i = 1; i < at.size(); i++) {
            chunks.add(java.util.Arrays.copyOfRange(data, at.get(i - 1), at.get(i)));
        }
        return chunks;
    }

    private static Task<Void> feeder(StreamReader reader, List<byte[]> chunks) {
        return createTask(() -> {
            for (byte[] c : chunks) {
                reader.feedData(c);
                sleep(0);
            }
            reader.feedEof();
        });
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void readlineReassemblesTheLines(long seed) {
        Random random = new Random(seed);
        byte[] data = text(random);
        List<Integer> cuts = cuts(random);
        NetTesting.onEveryLoop(10, () -> {
            StreamReader reader = new StreamReader(getRunningLoop());
            Task<Void> feeding = feeder(reader, chunk(data, cuts));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] line;
            while ((line = reader.readline()).length > 0) {
                for (int i = 0; i < line.length - 1; i++) {
                    assertTrue(line[i] != '\n', "a newline inside a line");
                }
                if (line[line.length - 1] != '\n') {
                    assertTrue(reader.atEof(), "only the last line may lack its newline");
                }
                all.writeBytes(line);
            }
            assertArrayEquals(data, all.toByteArray());
            await(feeding);
            return null;
        });
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void readuntilFindsSeparatorsCutAcrossReads(long seed) {
        Random random = new Random(seed);
        byte[] data = text(random);
        List<Integer> cuts = cuts(random);
        byte[] sep = "ab".getBytes();
        NetTesting.onEveryLoop(10, () -> {
            StreamReader reader = new StreamReader(getRunningLoop());
            Task<Void> feeding = feeder(reader, chunk(data, cuts));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            while (true) {
                try {
                    byte[] piece = reader.readuntil(sep);
                    String s = new String(piece);
                    assertTrue(s.endsWith("ab") && s.indexOf("ab") == s.length() - 2, "piece " + s);
                    all.writeBytes(piece);
                } catch (IncompleteReadException e) {
                    assertNull(e.expected());
                    assertTrue(!new String(e.partial()).contains("ab"));
                    all.writeBytes(e.partial());
                    break;
                }
            }
            assertArrayEquals(data, all.toByteArray());
            await(feeding);
            return null;
        });
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void readexactlyCutsFixedSizePieces(long seed) {
        Random random = new Random(seed);
        byte[] data = text(random);
        List<Integer> cuts = cuts(random);
        int size = 1 + random.nextInt(50);
        NetTesting.onEveryLoop(10, () -> {
            StreamReader reader = new StreamReader(getRunningLoop(), 16);   // small limit: pausing has no transport here
            Task<Void> feeding = feeder(reader, chunk(data, cuts));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            while (true) {
                try {
                    byte[] piece = reader.readexactly(size);
                    assertEquals(size, piece.length);
                    all.writeBytes(piece);
                } catch (IncompleteReadException e) {
                    assertEquals(size, e.expected());
                    assertTrue(e.partial().length < size);
                    all.writeBytes(e.partial());
                    break;
                }
            }
            assertArrayEquals(data, all.toByteArray());
            await(feeding);
            return null;
        });
    }
}
