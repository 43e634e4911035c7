package io.jasyncio.subprocess;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.NetTesting;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.Stream;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.getRunningLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 100 MiB through {@code cat} into a reader slower than the writer: the parent's buffers stay
 * bounded on both sides, at the protocol level where they can be seen.
 */
@Timeout(60)
@EveryLoop
@EveryEngine
class SubprocessFlowControlTest {
    private static final long TOTAL = 100L << 20;
    private static final int CHUNK = 64 * 1024;
    /** The slow reader holds at most this much before it pauses the stdout pipe. */
    private static final int HOLD = 1 << 20;
    /** The most one readiness event reads from a pipe (the loop's read buffer). */
    private static final int ONE_READ = 256 * 1024;

    static Stream<Arguments> cases() {
        return SubprocessTesting.loopsAndModes();
    }

    /**
     * Writes {@code TOTAL} bytes to stdin whenever the pipe is not paused; consumes stdout only
     * a little later (a timer), pausing the stdout pipe whenever it holds {@code HOLD} bytes.
     */
    static final class SlowCat extends RecordingSubprocessProtocol {
        final EventLoop loop = getRunningLoop();
        final ByteBuffer chunk = ByteBuffer.wrap(NetTesting.pattern(CHUNK, 100));
        long written;
        long receivedBytes;
        long held;
        long mostHeld;
        long largestStdinBuffer;
        int pauses;
        boolean writingPaused;

        @Override
        public void connectionMade(SubprocessTransport transport) {
            super.connectionMade(transport);
            loop.callSoon(this::writeMore);
        }

        private void writeMore() {
            var stdin = transport.getPipeTransport(0);
            while (!writingPaused && written < TOTAL) {
                stdin.write(chunk.clear());
                written += CHUNK;
                largestStdinBuffer = Math.max(largestStdinBuffer, stdin.getWriteBufferSize());
            }
            if (written == TOTAL && !stdin.isClosing()) {
                stdin.close();
            }
        }

        @Override
        public void pauseWriting() {
            writingPaused = true;
        }

        @Override
        public void resumeWriting() {
            writingPaused = false;
            writeMore();
        }

        @Override
        public void pipeDataReceived(int fd, ByteBuffer data) {
            receivedBytes += data.remaining();
            held += data.remaining();
            mostHeld = Math.max(mostHeld, held);
            if (held >= HOLD && transport.getPipeTransport(1).isReading()) {
                pauses++;
                transport.getPipeTransport(1).pauseReading();
                loop.callLater(0.0005, this::consume);
            }
        }

        private void consume() {
            held = 0;
            transport.getPipeTransport(1).resumeReading();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void hundredMibThroughCatIntoASlowReaderKeepsBuffersBounded(String loop, String mode) {
        SubprocessTesting.run(loop, mode, 50, () -> {
            SubprocessConnection<SlowCat> c = Subprocesses.subprocessExec(getRunningLoop(), SlowCat::new,
                    List.of("cat"), SubprocessOptions.defaults().withStdin(Stdio.PIPE).withStdout(Stdio.PIPE));
            SlowCat p = c.protocol();
            await(p.lost);
            assertEquals(TOTAL, p.receivedBytes);
            assertTrue(p.pauses >= TOTAL / HOLD / 2, "the reader paused the pipe only " + p.pauses + " times");
            assertTrue(p.mostHeld < HOLD + ONE_READ, "the reader held up to " + p.mostHeld + " bytes");
            long high = c.transport().getPipeTransport(0).getWriteBufferLimits()[0];
            assertTrue(p.largestStdinBuffer <= high + CHUNK,
                    "the stdin buffer grew to " + p.largestStdinBuffer + " (high-water mark " + high + ")");
            assertEquals("connectionMade", p.events.getFirst());
            assertEquals("connectionLost null", p.events.getLast());
            assertTrue(p.events.containsAll(List.of("pipeConnectionLost 0 null", "pipeConnectionLost 1 null",
                    "processExited 0")), p.events.toString());
            assertEquals(5, p.events.size(), p.events.toString());
            return null;
        });
    }
}
