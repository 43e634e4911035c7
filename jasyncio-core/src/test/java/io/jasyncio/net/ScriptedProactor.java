package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.net.spi.Proactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Proactor} whose completions the test makes: each request slot records what the
 * transport asked of it, and completes when the test says, with what the test says. For orders
 * a kernel may produce but a test cannot make it produce at will.
 */
final class ScriptedProactor implements Proactor {
    private final EventLoop loop;
    private final List<Slot> slots = new ArrayList<>();

    ScriptedProactor(EventLoop loop) {
        this.loop = loop;
    }

    /** The slots made so far, in order (a stream transport's first is its read slot). */
    List<Slot> slots() {
        return slots;
    }

    @Override
    public Operation newOperation(SocketChannel channel, Runnable onCompletion) {
        Slot slot = new Slot(loop, onCompletion);
        slots.add(slot);
        return slot;
    }

    @Override
    public IOException errorOf(int result) {
        return new IOException("errno " + -result);
    }

    /** One request slot: what was asked ("recvMultishot", "recvInto", "send", "cancel"), and completions on demand. */
    static final class Slot implements Operation {
        private record Completion(int result, ByteBuffer received, boolean more) {
        }

        final List<String> asked = new ArrayList<>();
        private final EventLoop loop;
        private final Runnable onCompletion;
        private final ArrayDeque<Completion> waiting = new ArrayDeque<>();
        private Completion current;

        Slot(EventLoop loop, Runnable onCompletion) {
            this.loop = loop;
            this.onCompletion = onCompletion;
        }

        /**
         * A multishot receive's completion with {@code bytes} (none: the end of the stream), not
         * one the cancel ended; {@code more}: the request goes on. The transport's callback runs soon.
         */
        void receive(byte[] bytes, boolean more) {
            if (waiting.isEmpty()) {
                loop.callSoon(onCompletion);
            }
            waiting.add(new Completion(bytes.length, bytes.length == 0 ? null : ByteBuffer.wrap(bytes), more));
        }

        @Override
        public void recvMultishot() {
            asked.add("recvMultishot");
        }

        @Override
        public void recvInto(ByteBuffer target) {
            asked.add("recvInto");
        }

        @Override
        public void send(ByteBuffer source) {
            asked.add("send");
        }

        @Override
        public void cancel() {
            asked.add("cancel");
        }

        @Override
        public boolean nextCompletion() {
            current = waiting.poll();
            return current != null;
        }

        @Override
        public int result() {
            return current.result;
        }

        @Override
        public ByteBuffer received() {
            return current.received;
        }

        @Override
        public boolean more() {
            return current.more;
        }

        @Override
        public boolean cancelled() {
            return false;
        }
    }
}
