package io.jasyncio.http.server;

import io.jasyncio.http.codec.PipelinedInput;
import io.jasyncio.http.codec.ReceiveDeadlines;
import io.jasyncio.http.codec.SendDeadlines;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.nio.ByteBuffer;

/**
 * One HTTP/1.1 connection as the transport's protocol: a thin adapter from the transport's events
 * and the server's sweep to the pieces that decide (the codec's {@link PipelinedInput},
 * {@link ReceiveDeadlines}, {@link SendDeadlines}) and act ({@link RequestCycle}: requests parsed
 * and answered in order; {@link ReadFlow}: flow control; {@link ConnectionEnd}: closing, lingering,
 * dropping, handing over; {@link ResponseWriter}: the bytes out). The socket is no longer read
 * once bytes held unparsed, or a body a streaming handler has not read, pass the mark, or while
 * the client does not take our writes: memory per connection stays bounded whatever it does.
 */
final class HttpConnection implements Protocol {
    private final ServerConnections server;
    private final EventLoop loop;
    private final PipelinedInput input = new PipelinedInput();
    private final ReceiveDeadlines deadlines;
    private final SendDeadlines sending;
    private final ReadFlow flow;
    private final ResponseWriter writer = new ResponseWriter();
    private final ConnectionEnd end;
    private final RequestCycle requests;
    private Transport transport;
    /** This connection's place in the server's list (for removal in O(1)). */
    int slot = -1;

    HttpConnection(ServerConnections server) {
        this.server = server;
        this.loop = server.loop();
        this.deadlines = new ReceiveDeadlines(server.timeouts());
        this.sending = new SendDeadlines(server.timeouts());
        this.flow = new ReadFlow(loop, server.options().readPauseBytes());
        this.end = new ConnectionEnd(loop, server.options().lingerBytes(), writer, flow, deadlines, input);
        this.requests = new RequestCycle(this, server, input, deadlines, writer, flow, end);
    }

    Transport transport() {
        return transport;
    }

    // ---- the transport's events ----------------------------------------------------------------

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
        writer.attach(transport, Outbound.of(loop));
        flow.attach(transport);
        end.attach(transport);
        HttpServerOptions options = server.options();
        transport.setWriteBufferLimits(options.writeHighWater(), options.writeLowWater());
        if (!server.add(this)) {
            end.refuseConnection(); // shutting down: no new connections
            return;
        }
        sending.progressed(loop.time());
        deadlines.idle(loop.time());
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        if (end.isHandedOver()) {
            input.hold(data); // the successor's, from its connectionMade on
            return;
        }
        if (end.isClosing()) {
            end.dropArrived(data); // answered and closing: the rest is dropped
            return;
        }
        requests.parseRead(data);
        updateReading();
    }

    @Override
    public boolean eofReceived() {
        if (end.peerClosedNow() != null) {
            return true; // handed over: the successor hears of it
        }
        return requests.clientEof();
    }

    @Override
    public void connectionLost(Throwable exc) {
        end.lost(exc);
        requests.lost();
        server.remove(this);
    }

    @Override
    public void pauseWriting() {
        flow.pauseWriting();
        updateReading();
    }

    @Override
    public void resumeWriting() {
        flow.resumeWriting();
        sending.progressed(loop.time());
        updateReading();
        requests.writingResumed();
    }

    /** Reads the socket only while little is held here and the client takes our writes. */
    void updateReading() {
        if (end.isClosed() || transport == null || end.isLingering() || end.isHandedOver()) {
            return;
        }
        if (flow.update(requests.heldBytes())) {
            deadlines.readingChanged(loop.time(), !flow.isReadingPaused()); // the body's clock runs only while we read it
        }
    }

    // ---- the server's calls ----------------------------------------------------------------------

    /** The server's sweep at {@code now}: drops a client that does not take its responses, acts on a deadline passed. */
    void checkTimeout(double now) {
        if (sending.check(now, transport.getWriteBufferSize(), writer.bytesSent(), end.isClosed()) != SendDeadlines.Verdict.OK) {
            end.drop(sending.reason());
            return;
        }
        switch (deadlines.check(now, end.isClosing(), flow.isReadingPaused())) {
            case NOTHING -> {
            }
            case END_LINGER -> end.endLinger();
            case CLOSE_IDLE -> requests.closeGracefully();
            case REFUSE -> requests.refuse(deadlines.refusal());
        }
    }

    /** Graceful shutdown: an idle connection closes now, a busy one after its response. */
    void shutdown() {
        requests.shutdown();
    }

    /** Drops the connection at once (the shutdown deadline). */
    void abort() {
        end.abort();
    }

    // ---- what the tests observe ----------------------------------------------------------------

    /** Request bytes held here: read and not parsed, or body not yet read by a streaming handler. */
    long heldBytes() {
        return requests.heldBytes();
    }

    /** Response bytes the transport holds, not yet taken by the socket. */
    long bufferedResponseBytes() {
        return transport.getWriteBufferSize();
    }

    /** Whether a request's head is parsed and its response not yet written. */
    boolean inRequest() {
        return requests.inRequest();
    }

    /** Body bytes gathered for the whole-request handler of the request being received. */
    long wholeBodyBytes() {
        return requests.wholeBodyBytes();
    }

    boolean isReadingPaused() {
        return flow.isReadingPaused();
    }

    boolean isWritePaused() {
        return flow.isWritePaused();
    }
}
