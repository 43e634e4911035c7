package io.jasyncio.lab;

import io.jasyncio.net.Protocol;
import io.jasyncio.net.Transport;

import java.nio.ByteBuffer;

/**
 * The benchmark echo: every read goes straight back out from dataReceived. The transport tries
 * the socket at once with the loop's read buffer, so a message costs two system calls and no
 * allocation; only bytes the socket refuses are copied into the write buffer.
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
}
