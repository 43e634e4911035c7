package io.jasyncio.subprocess;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamReaderProtocol;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.net.Transport;

import java.nio.ByteBuffer;

/**
 * The protocol under a {@link Subprocess} (asyncio's {@code SubprocessStreamProtocol}): a
 * {@link StreamReader} per output pipe, fed from {@code pipeDataReceived}, and a
 * {@link StreamWriter} on the stdin pipe. The readers pause their pipe transports when they hold
 * too much; the writer's {@code drain()} waits on a {@link StreamReaderProtocol} without a reader,
 * which gets the stdin pipe's pause/resumeWriting and its end. Once the child exited and every
 * output pipe closed, the transport is closed.
 */
final class SubprocessStreamProtocol implements SubprocessProtocol {
    private final EventLoop loop;
    private final int limit;
    private final StreamReaderProtocol stdinFlow;
    private SubprocessTransport transport;
    private StreamWriter stdin;
    private StreamReader stdout;
    private StreamReader stderr;
    private int openOutputPipes;
    private boolean processExited;

    SubprocessStreamProtocol(EventLoop loop, int limit) {
        this.loop = loop;
        this.limit = limit;
        this.stdinFlow = new StreamReaderProtocol(loop, null, null);
    }

    @Override
    public void connectionMade(SubprocessTransport transport) {
        this.transport = transport;
        stdout = readerOn(transport.getPipeTransport(1));
        stderr = readerOn(transport.getPipeTransport(2));
        Transport stdinPipe = transport.getPipeTransport(0);
        if (stdinPipe != null) {
            stdin = new StreamWriter(stdinPipe, stdinFlow, null, loop);
        }
    }

    private StreamReader readerOn(Transport pipe) {
        if (pipe == null) {
            return null;
        }
        StreamReader reader = new StreamReader(loop, limit);
        reader.setTransport(pipe);
        openOutputPipes++;
        return reader;
    }

    @Override
    public void pipeDataReceived(int fd, ByteBuffer data) {
        StreamReader reader = fd == 1 ? stdout : fd == 2 ? stderr : null;
        if (reader != null) {
            reader.feedData(data);
        }
    }

    @Override
    public void pipeConnectionLost(int fd, Throwable exc) {
        if (fd == 0) {
            if (stdin != null) {
                stdin.close();
            }
            stdinFlow.connectionLost(exc);
            return;
        }
        StreamReader reader = fd == 1 ? stdout : fd == 2 ? stderr : null;
        if (reader == null) {
            return;
        }
        if (exc == null) {
            reader.feedEof();
        } else {
            reader.setException(exc);
        }
        openOutputPipes--;
        maybeCloseTransport();
    }

    @Override
    public void processExited() {
        processExited = true;
        maybeCloseTransport();
    }

    private void maybeCloseTransport() {
        if (openOutputPipes == 0 && processExited && transport != null) {
            transport.close();
            transport = null;
        }
    }

    @Override
    public void pauseWriting() {
        stdinFlow.pauseWriting();
    }

    @Override
    public void resumeWriting() {
        stdinFlow.resumeWriting();
    }

    StreamWriter stdin() {
        return stdin;
    }

    StreamReader stdout() {
        return stdout;
    }

    StreamReader stderr() {
        return stderr;
    }
}
