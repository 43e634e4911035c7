package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

/**
 * TLS layered as a protocol, as asyncio's {@code sslproto.SSLProtocol}: it sits on a plain
 * transport as that transport's protocol, runs an {@link SSLEngine} over the bytes, and offers the
 * application protocol an {@link SslTransport} that encrypts what it writes.
 *
 * <pre>
 *   socket bytes -> SocketTransport -> SslProtocol.dataReceived -> unwrap -> app dataReceived
 *   app write -> SslTransport.write -> wrap -> SocketTransport.write -> socket
 * </pre>
 *
 * States: UNWRAPPED (before start, after failure) -> DO_HANDSHAKE (timer: handshakeTimeout) ->
 * WRAPPED (application data) -> SHUTDOWN (our close_notify sent, waiting for the peer's; timer:
 * shutdownTimeout, then the plain transport is aborted) -> the plain transport closes.
 */
final class SslProtocol implements Protocol {
    private enum State { UNWRAPPED, DO_HANDSHAKE, WRAPPED, SHUTDOWN }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final EventLoop loop;
    private BaseProtocol app;
    private final TlsOptions tls;
    private final Future<Void> waiter;
    private final boolean callConnectionMade;
    private final SSLEngine engine;
    private final SslTransport appTransport;
    private final ArrayDeque<ByteBuffer> writesBeforeHandshake = new ArrayDeque<>();

    private Transport transport;
    private State state = State.UNWRAPPED;
    private ByteBuffer netIn;   // read mode: position..limit is ciphertext not yet unwrapped
    private ByteBuffer appIn;
    private ByteBuffer netOut;
    private TimerHandle handshakeTimer;
    private TimerHandle shutdownTimer;
    private boolean appConnected;
    private boolean appEofSent;
    private boolean appReadingPaused;
    private Throwable failure;
    private ByteBuffer earlyData; // decrypted before the application was connected

    /**
     * {@code callConnectionMade} is false for startTls: the application protocol is already
     * connected and only changes transports.
     */
    SslProtocol(EventLoop loop, BaseProtocol app, TlsOptions tls, boolean serverSide, String serverHostname,
                Future<Void> waiter, boolean callConnectionMade) {
        this.loop = loop;
        this.callConnectionMade = callConnectionMade;
        this.app = app;
        this.tls = tls;
        this.waiter = waiter;
        this.engine = createEngine(tls, serverSide, serverHostname);
        this.appTransport = new SslTransport(this);
        int packet = engine.getSession().getPacketBufferSize();
        this.netIn = ByteBuffer.allocate(packet).flip();
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        this.netOut = ByteBuffer.allocate(packet);
    }

    /**
     * A client engine checks the certificate chain (the context's trust) and the host name, always.
     * Then the options' ALPN protocols and client authentication apply, and their configurator last.
     */
    private static SSLEngine createEngine(TlsOptions tls, boolean serverSide, String serverHostname) {
        SSLEngine engine;
        SSLParameters params;
        if (serverSide) {
            engine = tls.context().createSSLEngine();
            engine.setUseClientMode(false);
            params = engine.getSSLParameters();
            switch (tls.clientAuth()) {
                case REQUIRED -> params.setNeedClientAuth(true);
                case REQUESTED -> params.setWantClientAuth(true);
                case NONE -> { }
            }
        } else {
            if (serverHostname == null || serverHostname.isEmpty()) {
                throw new IllegalArgumentException("You must set server_hostname when using ssl without a host");
            }
            engine = tls.context().createSSLEngine(serverHostname, -1);
            engine.setUseClientMode(true);
            params = engine.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            if (!isAddressLiteral(serverHostname)) {
                params.setServerNames(List.of(new SNIHostName(serverHostname)));
            }
        }
        if (!tls.alpnProtocols().isEmpty()) {
            params.setApplicationProtocols(tls.alpnProtocols().toArray(String[]::new));
        }
        engine.setSSLParameters(params);
        tls.engineConfigurator().accept(engine);
        return engine;
    }

    private static boolean isAddressLiteral(String host) {
        try {
            InetAddress.ofLiteral(host);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    SslTransport appTransport() {
        return appTransport;
    }

    SSLEngine engine() {
        return engine;
    }

    TlsOptions options() {
        return tls;
    }

    Transport plainTransport() {
        return transport;
    }

    BaseProtocol appProtocol() {
        return app;
    }

    void setAppProtocol(BaseProtocol protocol) {
        this.app = java.util.Objects.requireNonNull(protocol, "protocol");
    }

    // ---- events from the plain transport ------------------------------------------------------

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
        state = State.DO_HANDSHAKE;
        handshakeTimer = loop.callLater(tls.handshakeTimeout(), this::handshakeTimedOut);
        try {
            engine.beginHandshake();
            process();
        } catch (SSLException | RuntimeException e) {
            handshakeFinished(e);
        }
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        if (state == State.UNWRAPPED) {
            return;
        }
        appendIncoming(data);
        try {
            process();
        } catch (SSLException | RuntimeException e) {
            if (state == State.DO_HANDSHAKE) {
                handshakeFinished(e);
            } else {
                fatalError(e, "SSL error in data received");
            }
        }
    }

    @Override
    public boolean eofReceived() {
        switch (state) {
            case DO_HANDSHAKE -> handshakeFinished(new ConnectionResetException("Connection lost"));
            case WRAPPED -> appEofReceived();
            default -> {
            }
        }
        return false; // TLS cannot stay half-open: let the plain transport close
    }

    @Override
    public void connectionLost(Throwable exc) {
        cancelTimers();
        Throwable cause = exc != null ? exc : failure;
        if (state == State.DO_HANDSHAKE && waiter != null && !waiter.isDone()) {
            waiter.setException(cause != null ? cause : new ConnectionResetException("Connection lost"));
        }
        state = State.UNWRAPPED;
        if (appConnected) {
            appConnected = false;
            app.connectionLost(cause);
        }
    }

    @Override
    public void pauseWriting() {
        app.pauseWriting();
    }

    @Override
    public void resumeWriting() {
        app.resumeWriting();
    }

    // ---- the engine pump ----------------------------------------------------------------------

    private void appendIncoming(ByteBuffer data) {
        int need = netIn.remaining() + data.remaining();
        if (need > netIn.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(need, netIn.capacity() * 2));
            bigger.put(netIn);
            netIn = bigger;
        } else {
            netIn.compact();
        }
        netIn.put(data).flip();
    }

    /** Runs the engine as far as the bytes at hand allow: handshake steps, then application data. */
    private void process() throws SSLException {
        while (true) {
            SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
            switch (hs) {
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                }
                case NEED_WRAP -> {
                    wrapAndSend(EMPTY);
                    if (engine.isOutboundDone() && engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                        return;
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (!unwrapOnce()) {
                        return;
                    }
                }
                default -> {
                    if (state == State.DO_HANDSHAKE) {
                        handshakeFinished(null);
                        if (state != State.WRAPPED) {
                            return;
                        }
                    }
                    if (appReadingPaused || !netIn.hasRemaining() || engine.isInboundDone()) {
                        return;
                    }
                    if (!unwrapOnce()) {
                        return;
                    }
                }
            }
        }
    }

    /** One unwrap; returns false when more ciphertext is needed (or the peer closed). */
    private boolean unwrapOnce() throws SSLException {
        while (true) {
            appIn.clear();
            SSLEngineResult r = engine.unwrap(netIn, appIn);
            switch (r.getStatus()) {
                case BUFFER_OVERFLOW -> {
                    appIn = ByteBuffer.allocate(Math.max(appIn.capacity() * 2, engine.getSession().getApplicationBufferSize()));
                    continue;
                }
                case BUFFER_UNDERFLOW -> {
                    return false;
                }
                case CLOSED -> {
                    deliver();
                    peerClosed();
                    return false;
                }
                default -> {
                    deliver();
                    return state != State.UNWRAPPED;
                }
            }
        }
    }

    private void deliver() {
        appIn.flip();
        if (!appIn.hasRemaining() || state == State.SHUTDOWN) {
            return; // (the application closed: what still arrives is dropped, as asyncio's shutdown does)
        }
        if (!appConnected) {
            if (state == State.DO_HANDSHAKE) { // application data ahead of the handshake's end: keep it
                earlyData = earlyData == null ? ByteBuffer.allocate(appIn.remaining()) : grow(earlyData, appIn.remaining());
                earlyData.put(appIn);
            }
            return;
        }
        try {
            if (app instanceof BufferedProtocol buffered) {
                while (appIn.hasRemaining()) {
                    ByteBuffer target = buffered.getBuffer(appIn.remaining());
                    int n = Math.min(target.remaining(), appIn.remaining());
                    if (n == 0) {
                        throw new IllegalStateException("get_buffer() returned an empty buffer");
                    }
                    target.put(appIn.slice(appIn.position(), n));
                    appIn.position(appIn.position() + n);
                    buffered.bufferUpdated(n);
                }
            } else {
                ((Protocol) app).dataReceived(appIn);
            }
        } catch (Throwable t) {
            fatalError(t, "Fatal error: protocol.data_received() call failed.");
        }
    }

    private static ByteBuffer grow(ByteBuffer b, int more) {
        ByteBuffer bigger = ByteBuffer.allocate(b.position() + more);
        return bigger.put(b.flip());
    }

    /** Encrypts all of {@code src} (or a handshake/close message for an empty one) and sends it. */
    private void wrapAndSend(ByteBuffer src) throws SSLException {
        do {
            netOut.clear();
            SSLEngineResult r = engine.wrap(src, netOut);
            if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                netOut = ByteBuffer.allocate(netOut.capacity() * 2);
                continue;
            }
            netOut.flip();
            if (netOut.hasRemaining() && !transport.isClosing()) {
                transport.write(netOut);
            }
            if (r.getStatus() == SSLEngineResult.Status.CLOSED || (r.bytesConsumed() == 0 && r.bytesProduced() == 0)) {
                return;
            }
        } while (src.hasRemaining());
    }

    private void handshakeFinished(Throwable exc) {
        if (state != State.DO_HANDSHAKE) {
            return;
        }
        if (handshakeTimer != null) {
            handshakeTimer.cancel();
        }
        if (exc != null) {
            state = State.UNWRAPPED;
            if (waiter != null && !waiter.isDone()) {
                waiter.setException(exc);
            }
            fatalError(exc, "SSL handshake failed");
            return;
        }
        state = State.WRAPPED;
        appConnected = true;
        try {
            if (callConnectionMade) { // (startTls: the caller hands the connected protocol the new transport)
                if (app instanceof Protocol p) {
                    p.connectionMade(appTransport);
                } else if (app instanceof BufferedProtocol b) {
                    b.connectionMade(appTransport);
                }
            }
        } catch (Throwable t) {
            fatalError(t, "Error occurred in connection_made()");
            return;
        }
        if (waiter != null && !waiter.isDone()) {
            waiter.setResult(null);
        }
        if (earlyData != null) {
            appIn = earlyData;  // deliver() flips it
            earlyData = null;
            deliver();
            appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        }
        try {
            ByteBuffer pending;
            while ((pending = writesBeforeHandshake.pollFirst()) != null) {
                wrapAndSend(pending);
            }
        } catch (SSLException e) {
            fatalError(e, "Fatal error on SSL protocol");
        }
    }

    private void handshakeTimedOut() {
        if (state == State.DO_HANDSHAKE) {
            handshakeFinished(new SSLHandshakeException("SSL handshake is taking longer than "
                    + tls.handshakeTimeout() + " seconds: aborting the connection"));
        }
    }

    private void appEofReceived() {
        if (appEofSent || !appConnected) {
            return;
        }
        appEofSent = true;
        try {
            boolean keepOpen = app instanceof Protocol p ? p.eofReceived() : ((BufferedProtocol) app).eofReceived();
            if (keepOpen) {
                System.getLogger("io.jasyncio.net").log(System.Logger.Level.WARNING,
                        "returning true from eof_received() has no effect when using ssl");
            }
        } catch (Throwable t) {
            fatalError(t, "Error calling eof_received()");
        }
    }

    /** The peer sent close_notify: tell the application, answer with ours, close. */
    private void peerClosed() {
        if (state == State.SHUTDOWN) {
            transport.close(); // the answer to our close_notify: the shutdown is complete
            return;
        }
        appEofReceived();
        startShutdown();
    }

    // ---- requests from the application transport ---------------------------------------------

    void appWrite(ByteBuffer data) {
        if (!data.hasRemaining()) {
            return;
        }
        switch (state) {
            case DO_HANDSHAKE, UNWRAPPED -> {
                if (transport == null || state == State.DO_HANDSHAKE) {
                    writesBeforeHandshake.addLast(ByteBuffer.allocate(data.remaining()).put(data).flip());
                }
            }
            case WRAPPED -> {
                try {
                    wrapAndSend(data);
                } catch (SSLException e) {
                    fatalError(e, "Fatal error on SSL transport");
                }
            }
            case SHUTDOWN -> data.position(data.limit()); // closing: dropped, as a closed transport drops
        }
    }

    long pendingWriteSize() {
        long n = transport == null ? 0 : transport.getWriteBufferSize();
        for (ByteBuffer b : writesBeforeHandshake) {
            n += b.remaining();
        }
        return n;
    }

    void appPauseReading() {
        appReadingPaused = true;
        if (transport != null) {
            transport.pauseReading();
        }
    }

    void appResumeReading() {
        if (!appReadingPaused) {
            return;
        }
        appReadingPaused = false;
        // Ciphertext may already be waiting here, with no readiness event left to bring it.
        loop.callSoon(() -> dataReceived(EMPTY));
        if (transport != null) {
            transport.resumeReading();
        }
    }

    boolean appReadingPaused() {
        return appReadingPaused;
    }

    /**
     * Orderly close, as asyncio: send close_notify, read on until the peer's arrives (or the peer
     * closes), then close the plain transport; after shutdownTimeout it is aborted instead.
     */
    void startShutdown() {
        if (transport == null) {
            return;
        }
        if (state != State.WRAPPED) {
            if (state == State.DO_HANDSHAKE) {
                transport.abort();
            } else if (state != State.SHUTDOWN) {
                transport.close();
            }
            return;
        }
        state = State.SHUTDOWN;
        shutdownTimer = loop.callLater(tls.shutdownTimeout(), () -> {
            failure = new SSLException("SSL shutdown timed out");
            transport.abort();
        });
        engine.closeOutbound();
        try {
            wrapAndSend(EMPTY);
        } catch (SSLException e) {
            transport.close(); // the peer is gone or broken: nothing to wait for
            return;
        }
        if (engine.isInboundDone()) {
            transport.close();  // the peer closed first: ours was the answer
        } else if (appReadingPaused) {
            appReadingPaused = false;  // the peer's close_notify must be read
            transport.resumeReading();
        }
    }

    void abort() {
        if (transport != null) {
            transport.abort();
        }
    }

    private void cancelTimers() {
        if (handshakeTimer != null) {
            handshakeTimer.cancel();
        }
        if (shutdownTimer != null) {
            shutdownTimer.cancel();
        }
    }

    private void fatalError(Throwable exc, String message) {
        if (failure == null) {
            failure = exc;
        }
        FatalErrors.report(loop, exc, message, appTransport, app);
        if (transport != null) {
            transport.abort();
        }
    }
}
