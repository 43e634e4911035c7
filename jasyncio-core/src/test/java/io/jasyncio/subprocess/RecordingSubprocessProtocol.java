package io.jasyncio.subprocess;

import io.jasyncio.loop.Future;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.getRunningLoop;

/** A subprocess protocol that records its events in order, and what each output pipe delivered. */
class RecordingSubprocessProtocol implements SubprocessProtocol {
    final List<String> events = new ArrayList<>();
    final ByteArrayOutputStream[] received = {new ByteArrayOutputStream(), new ByteArrayOutputStream(), new ByteArrayOutputStream()};
    /** Done at connectionLost. */
    final Future<Void> lost = getRunningLoop().createFuture();
    SubprocessTransport transport;

    @Override
    public void connectionMade(SubprocessTransport transport) {
        this.transport = transport;
        events.add("connectionMade");
    }

    @Override
    public void pipeDataReceived(int fd, ByteBuffer data) {
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        received[fd].writeBytes(bytes);
    }

    @Override
    public void pipeConnectionLost(int fd, Throwable exc) {
        events.add("pipeConnectionLost " + fd + " " + exc);
    }

    @Override
    public void processExited() {
        events.add("processExited " + transport.getReturncode());
    }

    @Override
    public void connectionLost(Throwable exc) {
        events.add("connectionLost " + exc);
        lost.setResult(null);
    }
}
