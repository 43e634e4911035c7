package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.jasyncio.task.Tasks.await;

/**
 * The protocol a transport talks to while {@link Sendfile} uses it (asyncio's
 * {@code _SendfileFallbackProtocol}): reading is paused, write flow control is caught here so
 * sendfile can wait for room, and the user's protocol is put back afterwards, told of any
 * pause or resume it missed and of a connection lost meanwhile.
 */
final class SendfileFlow implements Protocol {
    private enum FlowEvent { NONE, PAUSED, RESUMED }

    private final EventLoop loop;
    private final Transport transport;
    private final BaseProtocol original;
    private final boolean resumeReading;
    private FlowEvent first = FlowEvent.NONE;
    private FlowEvent last = FlowEvent.NONE;
    private Future<Void> writable;    // pending while the transport has paused writing
    private Throwable lost;           // set once the connection is gone
    private boolean connectionLost;

    SendfileFlow(EventLoop loop, Transport transport) {
        this.loop = loop;
        this.transport = transport;
        this.original = transport.getProtocol();
        this.resumeReading = transport.isReading();
        transport.pauseReading();
        transport.setProtocol(this);
    }

    /**
     * Coroutine: returns once the transport's buffer is at or below {@code bytes} (0: empty). The
     * transport says so through resumeWriting when its limits are set to that mark for a moment.
     */
    void drainTo(int bytes) throws IOException {
        failIfLost();
        if (transport.getWriteBufferSize() <= bytes) {
            return;
        }
        int[] limits = transport.getWriteBufferLimits();
        writable = loop.createFuture();
        transport.setWriteBufferLimits(bytes, bytes); // pauses us now, resumes us at the mark
        try {
            await(writable);
        } finally {
            writable = null;
            if (!connectionLost) {
                transport.setWriteBufferLimits(limits[0], limits[1]);
            }
        }
        failIfLost();
    }

    /** Coroutine: returns once the transport has room below its own high-water mark. */
    void drain() throws IOException {
        drainTo(transport.getWriteBufferLimits()[0]);
    }

    private void failIfLost() throws IOException {
        if (connectionLost || transport.isClosing()) {
            throw lost instanceof IOException io ? io
                    : new IOException("Connection closed by peer", lost);
        }
    }

    /** Puts the user's protocol back, with the flow state it would have seen, and resumes reading. */
    void restore() {
        transport.setProtocol(original);
        if (connectionLost) {
            original.connectionLost(lost);
            return;
        }
        if (resumeReading) {
            transport.resumeReading();
        }
        // The first event says how it started (a resume means it was paused), the last how it ends.
        if (first == FlowEvent.RESUMED && last == FlowEvent.RESUMED) {
            original.resumeWriting();
        } else if (first == FlowEvent.PAUSED && last == FlowEvent.PAUSED) {
            original.pauseWriting();
        }
    }

    @Override
    public void pauseWriting() {
        record(FlowEvent.PAUSED);
    }

    @Override
    public void resumeWriting() {
        record(FlowEvent.RESUMED);
        Future<Void> w = writable;
        if (w != null && !w.isDone()) {
            w.setResult(null);
        }
    }

    private void record(FlowEvent event) {
        if (first == FlowEvent.NONE) {
            first = event;
        }
        last = event;
    }

    @Override
    public void connectionLost(Throwable exc) {
        connectionLost = true;
        lost = exc;
        Future<Void> w = writable;
        if (w != null && !w.isDone()) {
            w.setResult(null); // drainTo sees the loss and throws
        }
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        throw new IllegalStateException("Invalid state: reading should be paused");
    }

    @Override
    public boolean eofReceived() {
        throw new IllegalStateException("Invalid state: reading should be paused");
    }
}
