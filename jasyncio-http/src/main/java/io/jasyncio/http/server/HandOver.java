package io.jasyncio.http.server;

import io.jasyncio.http.codec.PipelinedInput;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

/**
 * A connection taken over by a handler (Upgrade, CONNECT) passing to its next protocol. The
 * response head is written and the server has let go of the connection; soon after (outside the
 * parser, after the handler's step) {@link #run} makes {@code next} the transport's protocol and
 * gives it, in order, {@code connectionMade}, the bytes the client sent after the request, and
 * what happened meanwhile (the client's EOF, the connection lost).
 */
final class HandOver implements Runnable {
    private final Protocol next;
    private final Transport transport;
    private final PipelinedInput input;
    private final ReadFlow flow;
    private boolean peerClosed;
    private boolean lost;
    private Throwable lostWith;

    HandOver(Protocol next, Transport transport, PipelinedInput input, ReadFlow flow) {
        this.next = next;
        this.transport = transport;
        this.input = input;
        this.flow = flow;
    }

    /** The client closed its side before the hand-over completed: {@code next} hears of it. */
    void peerClosed() {
        peerClosed = true;
    }

    /** The connection was lost before the hand-over completed. */
    void lost(Throwable exc) {
        lost = true;
        lostWith = exc;
    }

    @Override
    public void run() {
        if (!lost) {
            transport.setProtocol(next);
        }
        next.connectionMade(transport);
        boolean held = !input.isEmpty();
        var rest = input.takeAll();
        if (held) {
            next.dataReceived(rest);
        }
        if (lost) {
            next.connectionLost(lostWith);
            return;
        }
        if (peerClosed && !next.eofReceived()) {
            transport.close();
        }
        flow.resumeReading();
    }
}
