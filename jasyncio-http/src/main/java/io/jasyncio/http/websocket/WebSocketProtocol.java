package io.jasyncio.http.websocket;

import io.jasyncio.http.websocket.codec.DeflateAgreement;
import io.jasyncio.http.websocket.codec.FrameDecoder;
import io.jasyncio.http.websocket.codec.FrameEncoder;
import io.jasyncio.http.websocket.codec.MessageDeflater;
import io.jasyncio.http.websocket.codec.Opcodes;
import io.jasyncio.http.websocket.codec.ProtocolError;
import io.jasyncio.http.server.ShutdownAware;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The I/O half of a WebSocket connection: the transport's protocol once the opening handshake is
 * done (a server's after {@code takeOver(101, …)}, a client's after {@link ClientHandshake}). It
 * feeds the bytes read to the {@link FrameDecoder}, answers pings, runs the closing handshake and
 * the keep-alive, and reports to a {@link WebSocketListener}. Reading is paused while any of
 * three say so: the application, a full receive queue, a full write buffer.
 */
final class WebSocketProtocol implements Protocol, FrameDecoder.Events, WebSocketConnection, ShutdownAware {
    private enum State { OPEN, CLOSING, CLOSED }

    private static final int PAUSED_BY_APPLICATION = 1;
    private static final int PAUSED_BY_QUEUE = 2;
    private static final int PAUSED_BY_WRITES = 4;

    private final EventLoop loop;
    private final boolean isServer;
    private final WebSocketOptions options;
    private final WebSocketListener listener;
    private final FrameDecoder decoder;
    private final FrameEncoder encoder;
    private final MessageDeflater deflater;
    private final String subprotocol;
    private final String extensions;

    private Transport transport;
    private final Future<Void> opened;
    private State state = State.OPEN;
    private int readPauses;
    private boolean readingPaused;
    private boolean writePaused;
    private Future<Void> writable;

    private boolean closeSent;
    private int closeCode = CloseCodes.ABNORMAL;
    private String closeReason = "";
    private TimerHandle closeTimer;
    /** Done once the connection is closed; made when the server shuts down, or null. */
    private Future<Void> closed;

    private TimerHandle keepalive;
    private byte[] keepalivePayload;

    WebSocketProtocol(EventLoop loop, boolean isServer, WebSocketOptions options, WebSocketListener listener,
                      DeflateAgreement deflate, String subprotocol) {
        this.loop = loop;
        this.opened = loop.createFuture();
        this.isServer = isServer;
        this.options = options;
        this.listener = listener;
        this.subprotocol = subprotocol;
        this.extensions = deflate == null ? null : deflate.header();
        this.decoder = new FrameDecoder(isServer, options.maxFrameSize(), options.maxMessageSize(),
                deflate == null ? null : deflate.inflater(), this);
        this.encoder = new FrameEncoder(!isServer);
        this.deflater = deflate != null && deflate.compressOutgoing() ? deflate.deflater(options.compressionLevel()) : null;
    }

    // ---- the transport's events ----------------------------------------------------------------

    @Override
    public void connectionMade(Transport t) {
        this.transport = t;
        t.setWriteBufferLimits(options.writeHighWater());
        if (options.pingInterval() > 0) {
            scheduleKeepalive();
        }
        opened.setResult(null);
        listener.onOpen(this);
    }

    /** Done once the connection is made (the transport handed over). */
    Future<Void> opened() {
        return opened;
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        if (state == State.CLOSED || decoder.closeReceived()) {
            data.position(data.limit());
            return;
        }
        try {
            decoder.feed(data);
        } catch (ProtocolError e) {
            fail(e.closeCode(), e.getMessage());
        }
    }

    @Override
    public boolean eofReceived() {
        return false; // the peer will send no more: the connection closes (1006 without a close frame)
    }

    @Override
    public void connectionLost(Throwable exc) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        if (!opened.isDone()) {
            opened.setResult(null); // lost before it was handed over: the session sees it closed
        }
        cancelTimers();
        decoder.release();
        if (deflater != null) {
            deflater.release();
        }
        if (writable != null && !writable.isDone()) {
            writable.setResult(null); // a sender waiting finds the connection closed
        }
        listener.onClose(this, closeCode, closeReason);
        if (closed != null && !closed.isDone()) {
            closed.setResult(null);
        }
    }

    @Override
    public void pauseWriting() {
        writePaused = true;
        addPause(PAUSED_BY_WRITES);
    }

    @Override
    public void resumeWriting() {
        writePaused = false;
        removePause(PAUSED_BY_WRITES);
        if (writable != null && !writable.isDone()) {
            writable.setResult(null);
        }
        if (state != State.CLOSED) {
            listener.onWritable(this);
        }
    }

    // ---- the decoder's events --------------------------------------------------------------------

    @Override
    public void onText(String text) {
        listener.onText(this, text);
    }

    @Override
    public void onBinary(byte[] data) {
        listener.onBinary(this, data);
    }

    @Override
    public void onPing(byte[] payload) {
        if (state == State.OPEN) {
            write(Opcodes.PONG, true, false, payload, 0, payload.length);
        }
        listener.onPing(this, payload);
    }

    @Override
    public void onPong(byte[] payload) {
        if (keepalivePayload != null && java.util.Arrays.equals(payload, keepalivePayload)) {
            keepalivePayload = null;
            keepalive.cancel();
            scheduleKeepalive();
        }
        listener.onPong(this, payload);
    }

    @Override
    public void onClose(int code, String reason) {
        closeCode = code; // the peer's word is the one reported
        closeReason = reason;
        if (!closeSent) {
            // echo the code received (RFC 6455 §5.5.1); a close without one is answered without one
            sendClose(code == CloseCodes.NO_STATUS ? null : FrameEncoder.closePayload(code, reason));
        }
        state = State.CLOSING;
        finishClosing();
    }

    // ---- sending -------------------------------------------------------------------------------

    @Override
    public boolean sendText(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return sendMessage(Opcodes.TEXT, bytes);
    }

    @Override
    public boolean sendBinary(byte[] data) {
        return sendMessage(Opcodes.BINARY, data);
    }

    private boolean sendMessage(int opcode, byte[] payload) {
        if (state != State.OPEN) {
            return false;
        }
        byte[] packed = deflater == null ? null : deflater.compress(payload, 0, payload.length);
        if (packed != null && packed.length < payload.length) {
            write(opcode, true, true, packed, 0, packed.length);
        } else { // a message that does not shrink goes as it is (RFC 7692 §6: compression is per message)
            write(opcode, true, false, payload, 0, payload.length);
        }
        return true;
    }

    @Override
    public boolean sendFragmented(boolean text, byte[]... parts) {
        if (state != State.OPEN) {
            return false;
        }
        if (parts.length == 0) {
            return sendMessage(text ? Opcodes.TEXT : Opcodes.BINARY, new byte[0]);
        }
        for (int i = 0; i < parts.length; i++) {
            int opcode = i > 0 ? Opcodes.CONTINUATION : text ? Opcodes.TEXT : Opcodes.BINARY;
            write(opcode, i == parts.length - 1, false, parts[i], 0, parts[i].length);
        }
        return true;
    }

    @Override
    public boolean ping(byte[] payload) {
        return control(Opcodes.PING, payload);
    }

    @Override
    public boolean pong(byte[] payload) {
        return control(Opcodes.PONG, payload);
    }

    private boolean control(int opcode, byte[] payload) {
        if (payload.length > Opcodes.MAX_CONTROL_PAYLOAD) {
            throw new IllegalArgumentException("a control frame carries at most 125 bytes, not " + payload.length);
        }
        if (state != State.OPEN) {
            return false;
        }
        write(opcode, true, false, payload, 0, payload.length);
        return true;
    }

    private void write(int opcode, boolean fin, boolean rsv1, byte[] payload, int offset, int length) {
        if (transport == null) {
            throw new IllegalStateException("the connection is not open yet: send from onOpen on");
        }
        transport.write(encoder.frame(opcode, fin, rsv1, payload, offset, length));
    }

    // ---- closing -------------------------------------------------------------------------------

    @Override
    public void close(int code, String reason) {
        if (state != State.OPEN) {
            return;
        }
        if (!Opcodes.isSendableCloseCode(code)) {
            throw new IllegalArgumentException("close code " + code + " may not be sent");
        }
        closeCode = code;
        closeReason = reason;
        sendClose(FrameEncoder.closePayload(code, reason));
        state = State.CLOSING;
        closeTimer = loop.callLater(options.closeTimeout(), this::abort); // the peer must answer in time
    }

    /** Fails the connection (RFC 6455 §7.1.7): a close frame with {@code code}, then the TCP connection closes. */
    void fail(int code, String reason) {
        if (state == State.CLOSED) {
            return;
        }
        if (!closeSent) {
            closeCode = code;
            closeReason = reason;
            sendClose(FrameEncoder.closePayload(code, reason));
        }
        state = State.CLOSING;
        transport.close(); // the close frame goes out first
    }

    /** The server shuts down (RFC 6455 §7.4.1): the closing handshake with 1001, the peer's answer awaited. */
    @Override
    public Future<Void> serverShuttingDown() {
        if (closed == null) {
            closed = loop.createFuture();
            if (state == State.CLOSED) {
                closed.setResult(null);
            }
        }
        close(CloseCodes.GOING_AWAY, "server shutting down");
        return closed;
    }

    private void sendClose(byte[] payload) {
        closeSent = true;
        byte[] p = payload == null ? new byte[0] : payload;
        write(Opcodes.CLOSE, true, false, p, 0, p.length);
    }

    /**
     * Both close frames went: the server closes the TCP connection (RFC 6455 §7.1.1); a client
     * waits for the server to, for the close timeout at most.
     */
    private void finishClosing() {
        if (closeTimer != null) {
            closeTimer.cancel();
        }
        if (isServer) {
            transport.close();
        } else {
            closeTimer = loop.callLater(options.closeTimeout(), transport::close);
        }
    }

    @Override
    public void abort() {
        if (transport != null) {
            transport.abort();
        }
    }

    private void cancelTimers() {
        if (closeTimer != null) {
            closeTimer.cancel();
        }
        if (keepalive != null) {
            keepalive.cancel();
        }
    }

    // ---- keep-alive ----------------------------------------------------------------------------

    private void scheduleKeepalive() {
        keepalive = loop.callLater(options.pingInterval(), this::keepalivePing);
    }

    private void keepalivePing() {
        if (state != State.OPEN) {
            return;
        }
        long now = System.nanoTime();
        keepalivePayload = new byte[]{(byte) (now >>> 24), (byte) (now >>> 16), (byte) (now >>> 8), (byte) now};
        write(Opcodes.PING, true, false, keepalivePayload, 0, 4);
        keepalive = loop.callLater(options.pingTimeout(), () -> {
            if (keepalivePayload != null) {
                fail(CloseCodes.INTERNAL_ERROR, "keepalive ping timeout");
            }
        });
    }

    // ---- flow control --------------------------------------------------------------------------

    /** A future done when the write buffer is below its mark again (or the connection is closed); null if it is now. */
    Future<Void> whenWritable() {
        if (!writePaused || state == State.CLOSED) {
            return null;
        }
        if (writable == null || writable.isDone()) {
            writable = loop.createFuture();
        }
        return writable;
    }

    void setQueueFull(boolean full) {
        if (full) {
            addPause(PAUSED_BY_QUEUE);
        } else {
            removePause(PAUSED_BY_QUEUE);
        }
    }

    @Override
    public void pauseReading() {
        addPause(PAUSED_BY_APPLICATION);
    }

    @Override
    public void resumeReading() {
        removePause(PAUSED_BY_APPLICATION);
    }

    private void addPause(int reason) {
        readPauses |= reason;
        if (!readingPaused && transport != null && !transport.isClosing()) {
            readingPaused = true;
            transport.pauseReading();
        }
    }

    private void removePause(int reason) {
        readPauses &= ~reason;
        if (readPauses == 0 && readingPaused && transport != null && !transport.isClosing()) {
            readingPaused = false;
            transport.resumeReading();
        }
    }

    // ---- what the connection is ----------------------------------------------------------------

    @Override
    public boolean isWritable() {
        return !writePaused;
    }

    @Override
    public long bufferedAmount() {
        return transport == null ? 0 : transport.getWriteBufferSize();
    }

    @Override
    public boolean isOpen() {
        return state == State.OPEN;
    }

    boolean isClosed() {
        return state == State.CLOSED;
    }

    int closeCode() {
        return closeCode;
    }

    String closeReason() {
        return closeReason;
    }

    @Override
    public String subprotocol() {
        return subprotocol;
    }

    @Override
    public String extensions() {
        return extensions;
    }

    @Override
    public SocketAddress remoteAddress() {
        return transport == null ? null : (SocketAddress) transport.getExtraInfo("peername");
    }

    @Override
    public EventLoop loop() {
        return loop;
    }
}
