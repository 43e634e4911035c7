package io.jasyncio.http.server;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.Transport;

import java.io.IOException;

import static io.jasyncio.task.Tasks.await;

/**
 * One server connection's flow control, both ways: the socket is read only while little is held
 * (request bytes not parsed, or body not read by a streaming handler, up to the mark) and the
 * client takes our writes (the transport's buffer below its high-water mark); a handler's write
 * waits while it is not below.
 */
final class ReadFlow {
    private final EventLoop loop;
    private final long readPauseBytes;
    private Transport transport;
    private boolean writePaused;
    private boolean readingPaused;
    private boolean lost;
    private String lostReason;
    private Future<Void> drained;

    ReadFlow(EventLoop loop, long readPauseBytes) {
        this.loop = loop;
        this.readPauseBytes = readPauseBytes;
    }

    void attach(Transport transport) {
        this.transport = transport;
    }

    boolean isReadingPaused() {
        return readingPaused;
    }

    boolean isWritePaused() {
        return writePaused;
    }

    void pauseWriting() {
        writePaused = true;
    }

    void resumeWriting() {
        writePaused = false;
        wakeDrainWaiter();
    }

    /** Pauses or resumes reading for {@code held} bytes held; true if that changed whether the socket is read. */
    boolean update(long held) {
        boolean wanted = !writePaused && held <= readPauseBytes;
        if (wanted != readingPaused) {
            return false;
        }
        readingPaused = !wanted;
        if (wanted) {
            transport.resumeReading();
        } else {
            transport.pauseReading();
        }
        return true;
    }

    /** Reads the socket again, whatever is held (the connection lingers, or is handed over). */
    void resumeReading() {
        if (readingPaused) {
            readingPaused = false;
            transport.resumeReading();
        }
    }

    /** Coroutine: returns once the transport's write buffer is down to its low-water mark. */
    void awaitDrain() throws IOException {
        while (writePaused && !lost) {
            if (drained == null) {
                drained = loop.createFuture();
            }
            await(drained);
        }
        if (lost) {
            throw new IOException(lostReason != null ? lostReason : "the HTTP connection was lost");
        }
    }

    /** The connection is gone ({@code reason}: why this side dropped it, or null): a waiting write fails. */
    void lost(String reason) {
        lost = true;
        lostReason = reason;
        wakeDrainWaiter();
    }

    private void wakeDrainWaiter() {
        Future<Void> d = drained;
        if (d != null) {
            drained = null;
            if (!d.isDone()) {
                d.setResult(null);
            }
        }
    }
}
