package io.jasyncio.net;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.nio.ByteBuffer;
import java.security.cert.Certificate;

/**
 * The transport a protocol sees over TLS (asyncio's {@code _SSLProtocolTransport}): writes are
 * encrypted by the {@link SslProtocol} beneath and go out through the plain transport, whose
 * buffer and water marks provide flow control.
 */
final class SslTransport implements Transport {
    private final SslProtocol ssl;
    private boolean closing;

    SslTransport(SslProtocol ssl) {
        this.ssl = ssl;
    }

    @Override
    public void write(ByteBuffer data) {
        ssl.appWrite(data);
    }

    /** TLS has no half-close that survives (close_notify ends both directions). */
    @Override
    public void writeEof() {
        throw new UnsupportedOperationException("write_eof() is not supported over TLS");
    }

    @Override
    public boolean canWriteEof() {
        return false;
    }

    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        ssl.startShutdown();
    }

    @Override
    public void abort() {
        closing = true;
        ssl.abort();
    }

    @Override
    public boolean isClosing() {
        Transport plain = ssl.plainTransport();
        return closing || (plain != null && plain.isClosing());
    }

    @Override
    public void pauseReading() {
        ssl.appPauseReading();
    }

    @Override
    public void resumeReading() {
        ssl.appResumeReading();
    }

    @Override
    public boolean isReading() {
        return !ssl.appReadingPaused() && !isClosing();
    }

    @Override
    public void setWriteBufferLimits(int high, int low) {
        ssl.plainTransport().setWriteBufferLimits(high, low);
    }

    @Override
    public int[] getWriteBufferLimits() {
        return ssl.plainTransport().getWriteBufferLimits();
    }

    @Override
    public long getWriteBufferSize() {
        return ssl.pendingWriteSize();
    }

    @Override
    public Object getExtraInfo(String name) {
        SSLSession session = ssl.engine().getSession();
        return switch (name) {
            case "sslcontext" -> ssl.options().context();
            case "ssl_object" -> ssl.engine();
            case "cipher" -> session.getCipherSuite();
            case "peercert" -> peerCertificate(session);
            case "alpn_protocol" -> selectedAlpnProtocol();
            default -> ssl.plainTransport() == null ? null : ssl.plainTransport().getExtraInfo(name);
        };
    }

    /** asyncio's {@code ssl_object.selected_alpn_protocol()}: null when none was agreed (or not yet). */
    private String selectedAlpnProtocol() {
        String selected = ssl.engine().getApplicationProtocol();
        return selected == null || selected.isEmpty() ? null : selected;
    }

    private static Certificate peerCertificate(SSLSession session) {
        try {
            Certificate[] chain = session.getPeerCertificates();
            return chain.length == 0 ? null : chain[0];
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
    }

    @Override
    public BaseProtocol getProtocol() {
        return ssl.appProtocol();
    }

    @Override
    public void setProtocol(BaseProtocol protocol) {
        ssl.setAppProtocol(protocol);
    }

    @Override
    public String toString() {
        return "<SslTransport over " + ssl.plainTransport() + ">";
    }
}
