package io.jasyncio.lab;

import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.nio.ByteBuffer;

/**
 * The benchmark echo: every read goes straight back out from dataReceived. The transport tries
 * the socket at once with the loop's read buffer, so a message costs two system calls and no
 * allocation; only bytes the socket refuses are copied into the write buffer.
 *
 * <p>Memory stays bounded by the transport's buffers: while writing is paused (a peer that
 * sends and does not read), reading is paused too, so the kernel's buffers fill and TCP stops
 * the sender (the idiom documented on {@link io.jasyncio.net.BaseProtocol#pauseWriting()}).
 */
final class EchoProtocol implements Protocol {
    private Transport transport;

    @Override
    public void connectionMade(Transport transport) {
        this.transport = transport;
    }

    @Override
    public void dataReceived(ByteBuffer data) {
        transport.write(data);
    }

    @Override
    public void pauseWriting() {
        transport.pauseReading();
    }

    @Override
    public void resumeWriting() {
        transport.resumeReading();
    }

    /** The connection's transport (null until it is made). */
    Transport transport() {
        return transport;
    }
}
