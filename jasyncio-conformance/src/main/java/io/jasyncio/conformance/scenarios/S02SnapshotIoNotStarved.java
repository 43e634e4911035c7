package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;

/**
 * Scenario 02: the ready-queue snapshot lets I/O in between self-rescheduling callbacks. A
 * {@link Pipe} stands in for the socket pair: its source end is the "reader end".
 */
public final class S02SnapshotIoNotStarved extends Scenario {
    private EventLoop loop;
    private Pipe pipe;

    @Override
    public String name() {
        return "02_snapshot_io_not_starved";
    }

    @Override
    protected void run() throws IOException {
        loop = newLoop();
        pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        loop.addReader(pipe.source(), this::onReadable);
        loop.callSoon(() -> tick(0));
        loop.runForever();
        print("stopped");
        pipe.source().close();
        pipe.sink().close();
        loop.close();
    }

    private void onReadable() {
        try {
            ByteBuffer buf = ByteBuffer.allocate(100);
            pipe.source().read(buf);
            String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
            print("reader got", text);
            if (text.equals("ping")) {
                send("pong");
            } else if (text.equals("pong")) {
                loop.removeReader(pipe.source());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void tick(int n) {
        print("tick", n);
        if (n == 2) {
            send("ping");
            print("tick 2 wrote ping");
        }
        if (n == 7) {
            loop.stop();
            return;
        }
        loop.callSoon(() -> tick(n + 1));
    }

    private void send(String text) {
        try {
            pipe.sink().write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
