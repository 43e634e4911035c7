package io.jasyncio.http.websocket;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpLimits;
import io.jasyncio.http.HttpMessageListener;
import io.jasyncio.http.HttpParseException;
import io.jasyncio.http.HttpParser;
import io.jasyncio.http.HttpResponse;
import io.jasyncio.http.websocket.codec.DeflateAgreement;
import io.jasyncio.http.websocket.codec.ExtensionOffer;
import io.jasyncio.http.websocket.codec.HandshakeKeys;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The client's side of the opening handshake (RFC 6455 §4.1), as the transport's first protocol:
 * it writes the GET with {@code Upgrade: websocket}, parses the answer's head with
 * {@link HttpParser}, checks it (101, the accept key, a subprotocol and extensions that were
 * offered) and hands the transport, with the bytes that followed the head, to a
 * {@link WebSocketProtocol}. {@link #result()} is that protocol, or the handshake's failure.
 */
final class ClientHandshake implements Protocol, HttpMessageListener {
    private final EventLoop loop;
    private final String target;
    private final String hostField;
    private final WebSocketOptions options;
    private final WebSocketListener listener;
    private final String key = HandshakeKeys.newKey();
    private final HttpParser parser = HttpParser.forResponses(HttpLimits.defaults(), this);
    private final Future<WebSocketProtocol> result;
    private Transport transport;
    private HttpResponse head;

    ClientHandshake(EventLoop loop, String target, String hostField, WebSocketOptions options, WebSocketListener listener) {
        this.loop = loop;
        this.target = target;
        this.hostField = hostField;
        this.options = options;
        this.listener = listener;
        this.result = loop.createFuture();
    }

    Future<WebSocketProtocol> result() {
        return result;
    }

    @Override
    public void connectionMade(Transport t) {
        this.transport = t;
        StringBuilder request = new StringBuilder(256)
                .append("GET ").append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(hostField).append("\r\n")
                .append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
                .append("Sec-WebSocket-Key: ").append(key).append("\r\n")
                .append("Sec-WebSocket-Version: 13\r\n");
        if (!options.subprotocols().isEmpty()) {
            request.append("Sec-WebSocket-Protocol: ").append(String.join(", ", options.subprotocols())).append("\r\n");
        }
        if (options.compression()) {
            request.append("Sec-WebSocket-Extensions: ")
                    .append(DeflateAgreement.clientOffer(options.serverNoContextTakeover(), options.clientNoContextTakeover()))
                    .append("\r\n");
        }
        HttpHeaders extra = options.headers();
        for (int i = 0; i < extra.size(); i++) {
            request.append(extra.name(i)).append(": ").append(extra.value(i)).append("\r\n");
        }
        request.append("\r\n");
        t.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        if (result.isDone()) {
            return;
        }
        try {
            parser.feed(data);
        } catch (HttpParseException e) {
            failWith(new WebSocketHandshakeException(0, "a malformed handshake response: " + e.getMessage()));
            return;
        }
        if (head == null) {
            return; // the head is not all in yet
        }
        try {
            WebSocketProtocol protocol = check(head);
            transport.setProtocol(protocol);
            result.setResult(protocol);
            protocol.connectionMade(transport);
            if (data.hasRemaining()) {
                protocol.dataReceived(data); // frames that came with the head
            }
        } catch (WebSocketHandshakeException e) {
            failWith(e);
        }
    }

    @Override
    public boolean onResponseHead(HttpResponse response) {
        if (response.status() >= 100 && response.status() < 200 && response.status() != 101) {
            return true; // an interim response: the real one follows
        }
        head = response;
        return false;
    }

    @Override
    public boolean onMessageComplete(HttpHeaders trailers) {
        return head == null;
    }

    private WebSocketProtocol check(HttpResponse response) throws WebSocketHandshakeException {
        int status = response.status();
        if (status != 101) {
            throw new WebSocketHandshakeException(status, "the server answered " + status + " " + response.reason()
                    + ", not 101 Switching Protocols");
        }
        HttpHeaders fields = response.headers();
        if (!fields.containsToken("Upgrade", "websocket") || !fields.containsToken("Connection", "upgrade")) {
            throw new WebSocketHandshakeException(status, "a 101 without Upgrade: websocket and Connection: Upgrade");
        }
        if (!HandshakeKeys.accept(key).equals(fields.get("Sec-WebSocket-Accept"))) {
            throw new WebSocketHandshakeException(status, "a wrong Sec-WebSocket-Accept");
        }
        String subprotocol = fields.get("Sec-WebSocket-Protocol");
        if (subprotocol != null && !options.subprotocols().contains(subprotocol)) {
            throw new WebSocketHandshakeException(status, "the server chose a subprotocol not offered: " + subprotocol);
        }
        List<ExtensionOffer> extensions = ExtensionOffer.parse(fields.getAll("Sec-WebSocket-Extensions"));
        DeflateAgreement deflate = null;
        if (!extensions.isEmpty()) {
            if (!options.compression() || extensions.size() > 1) {
                throw new WebSocketHandshakeException(status, "the server chose extensions not offered: " + extensions);
            }
            try {
                deflate = DeflateAgreement.clientAccept(extensions.getFirst(), options.serverNoContextTakeover(),
                        options.clientNoContextTakeover());
            } catch (IllegalArgumentException e) {
                throw new WebSocketHandshakeException(status, e.getMessage());
            }
        }
        return new WebSocketProtocol(loop, false, options, listener, deflate, subprotocol);
    }

    private void failWith(IOException e) {
        if (!result.isDone()) {
            result.setException(e);
        }
        transport.abort();
    }

    @Override
    public boolean eofReceived() {
        return false;
    }

    @Override
    public void connectionLost(Throwable exc) {
        if (!result.isDone()) {
            result.setException(new WebSocketHandshakeException(0, "the connection closed during the opening handshake"
                    + (exc == null ? "" : ": " + exc)));
        }
    }
}
