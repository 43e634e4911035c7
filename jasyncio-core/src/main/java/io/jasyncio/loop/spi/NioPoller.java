package io.jasyncio.loop.spi;

import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@link Poller} over {@link Selector} (epoll on Linux, kqueue on macOS).
 *
 * <p>It uses the {@code select(Consumer, timeout)} form, so the JDK hands each ready key
 * straight to us instead of filling a {@code HashSet} of selected keys: the same saving Netty
 * gets by swapping that set for an array, without reflection.
 */
final class NioPoller implements Poller<NioPoller.Registration> {
    private final Selector selector;
    private IoEventSink<? super Registration> sink;
    private int events;
    private final Consumer<SelectionKey> onKey = this::dispatch;

    /** A channel's registration with the selector: its key, null until it is registered. */
    static final class Registration extends IoRegistration {
        SelectionKey key;

        Registration(SelectableChannel channel) {
            super(channel);
        }
    }

    NioPoller() throws IOException {
        this.selector = Selector.open();
    }

    @Override
    public Registration newRegistration(SelectableChannel channel) {
        return new Registration(channel);
    }

    @Override
    public void setInterest(Registration registration, int ops) throws IOException {
        SelectableChannel channel = registration.channel();
        SelectionKey key = registration.key;
        int nioOps = toNioOps(channel, ops);
        if (key == null || !key.isValid()) {
            if (ops == 0) {
                registration.key = null;
                return;
            }
            if (channel.isBlocking()) {
                channel.configureBlocking(false);
            }
            registration.key = channel.register(selector, nioOps, registration);
        } else if (ops == 0 && channel instanceof ServerSocketChannel) {
            // A listener the loop stops watching is about to be closed (a server closing) or
            // paused: deregister it now. A channel closed while registered stays open in the
            // kernel until the next select, still completing handshakes it then resets; asyncio's
            // server.close() stops listening at once. (selectNow's ready keys go to the
            // selected-key set, which the Consumer form of select never uses: dropped here.)
            key.cancel();
            registration.key = null;
            selector.selectNow();
            selector.selectedKeys().clear();
        } else if (ops == 0) {
            // Keep the key with no interest rather than cancel it: a cancelled key stays in the
            // selector until its next select, and registering the channel again before that (a
            // transport pausing and resuming reading in one callback) throws CancelledKeyException.
            key.interestOps(0);
        } else {
            key.interestOps(nioOps);
        }
    }

    @Override
    public Registration registrationOf(SelectableChannel channel) {
        SelectionKey key = channel.keyFor(selector);
        return key == null || !key.isValid() || !(key.attachment() instanceof Registration r) ? null : r;
    }

    /** READ means read or accept, WRITE means write or connect, as the channel allows. */
    private static int toNioOps(SelectableChannel channel, int ops) {
        int valid = channel.validOps();
        int nio = 0;
        if ((ops & READ) != 0) {
            nio |= valid & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT);
        }
        if ((ops & WRITE) != 0) {
            nio |= valid & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT);
        }
        return nio;
    }

    @Override
    public int select(long timeoutNanos, IoEventSink<? super Registration> sink) throws IOException {
        this.sink = sink;
        this.events = 0;
        if (timeoutNanos == 0) {
            selector.selectNow(onKey);
        } else if (timeoutNanos < 0) {
            selector.select(onKey);
        } else {
            // Round up to whole milliseconds (as asyncio does): waking early would spin.
            long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos + 999_999));
            selector.select(onKey, millis);
        }
        this.sink = null;
        return events;
    }

    private void dispatch(SelectionKey key) {
        int ready;
        try {
            ready = key.readyOps();
        } catch (CancelledKeyException e) {
            return;
        }
        int ops = 0;
        if ((ready & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0) {
            ops |= READ;
        }
        if ((ready & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0) {
            ops |= WRITE;
        }
        if (key.attachment() instanceof Registration registration) { // null once the poller closed
            events++;
            sink.onIoEvent(registration, ops);
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() throws IOException {
        // A closed selector keeps its keys (its fd-to-key map is not cleared), and so their
        // attachments: the handles and, through them, every transport and protocol still
        // registered. Let go of them, so a closed loop does not keep its connections alive.
        for (SelectionKey key : selector.keys()) {
            key.attach(null);
        }
        selector.close();
    }
}
