package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.internal.loop.Throwables;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static io.jasyncio.task.Tasks.await;

/**
 * asyncio's {@code StreamReader}: a buffer the protocol feeds and coroutines read from. When the
 * buffer holds more than twice the limit, the transport stops reading until it drains back to
 * the limit, so a slow reader never makes memory grow without bound.
 */
public final class StreamReader {
    /** asyncio's default limit for a line or a readuntil chunk: 64 KiB. */
    public static final int DEFAULT_LIMIT = 64 * 1024;

    private final EventLoop loop;
    private final int limit;
    private byte[] buf = new byte[1024];
    private int start;   // unread bytes are buf[start, end)
    private int end;
    private boolean eof;
    private Future<Void> waiter;
    private Throwable exception;
    private Transport transport;
    private boolean paused;

    public StreamReader(EventLoop loop) {
        this(loop, DEFAULT_LIMIT);
    }

    public StreamReader(EventLoop loop, int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("Limit cannot be <= 0");
        }
        this.loop = loop;
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }

    // ---- the feeding side (the protocol) --------------------------------------------------------

    public Throwable exception() {
        return exception;
    }

    /** Makes every pending and later read fail with {@code exc}. */
    public void setException(Throwable exc) {
        exception = exc;
        Future<Void> w = waiter;
        if (w != null) {
            waiter = null;
            if (!w.isCancelled()) {
                w.setException(exc);
            }
        }
    }

    public void setTransport(Transport transport) {
        if (this.transport != null) {
            throw new IllegalStateException("Transport already set");
        }
        this.transport = transport;
    }

    public void feedEof() {
        eof = true;
        wakeupWaiter();
    }

    /** True when the stream ended and every byte was read. */
    public boolean atEof() {
        return eof && start == end;
    }

    /** Appends the bytes between {@code data}'s position and limit (copied; the position advances). */
    public void feedData(ByteBuffer data) {
        if (eof) {
            throw new IllegalStateException("feed_data after feed_eof");
        }
        int n = data.remaining();
        if (n == 0) {
            return;
        }
        ensureRoom(n);
        data.get(buf, end, n);
        end += n;
        wakeupWaiter();
        if (transport != null && !paused && size() > 2 * limit) {
            try {
                transport.pauseReading();
                paused = true;
            } catch (UnsupportedOperationException e) {
                transport = null; // a transport that cannot pause: keep reading
            }
        }
    }

    public void feedData(byte[] data) {
        feedData(ByteBuffer.wrap(data));
    }

    private void ensureRoom(int n) {
        if (end + n <= buf.length) {
            return;
        }
        int size = size();
        if (size + n <= buf.length && start > 0) {
            System.arraycopy(buf, start, buf, 0, size);
        } else {
            byte[] bigger = new byte[Math.max(buf.length * 2, size + n)];
            System.arraycopy(buf, start, bigger, 0, size);
            buf = bigger;
        }
        start = 0;
        end = size;
    }

    private int size() {
        return end - start;
    }

    private void wakeupWaiter() {
        Future<Void> w = waiter;
        if (w != null) {
            waiter = null;
            if (!w.isCancelled()) {
                w.setResult(null);
            }
        }
    }

    private void maybeResumeTransport() {
        if (paused && size() <= limit) {
            paused = false;
            transport.resumeReading();
        }
    }

    /** Waits until data or EOF arrives; only one coroutine may wait at a time. */
    private void waitForData(String funcName) {
        if (waiter != null) {
            throw new IllegalStateException(funcName
                    + "() called while another coroutine is already waiting for incoming data");
        }
        if (eof) {
            throw new IllegalStateException("_wait_for_data after EOF");
        }
        if (paused) {            // the buffer may be full without the data asked for:
            paused = false;      // read on, or a readexactly larger than 2 * limit would hang
            transport.resumeReading();
        }
        waiter = loop.createFuture();
        try {
            await(waiter);
        } finally {
            waiter = null;
        }
    }

    private void throwIfFailed() {
        if (exception != null) {
            throw Throwables.sneakyThrow(exception);
        }
    }

    private byte[] take(int n) {
        byte[] out = Arrays.copyOfRange(buf, start, start + n);
        start += n;
        if (start == end) {
            start = end = 0;
        }
        return out;
    }

    private int indexOf(byte[] sep, int from) {
        int last = end - sep.length;
        outer:
        for (int i = start + from; i <= last; i++) {
            for (int j = 0; j < sep.length; j++) {
                if (buf[i + j] != sep[j]) {
                    continue outer;
                }
            }
            return i - start;
        }
        return -1;
    }

    // ---- the reading side (coroutines) ----------------------------------------------------------

    /**
     * Coroutine: one line, ending with {@code \n} (included). At EOF a last partial line is
     * returned as is, then empty arrays. A line longer than the limit is dropped and reported
     * as an {@link IllegalArgumentException} (asyncio's ValueError).
     */
    public byte[] readline() throws IOException {
        byte[] sep = {'\n'};
        try {
            return readuntil(sep);
        } catch (IncompleteReadException e) {
            return e.partial();
        } catch (LimitOverrunException e) {
            if (startsWith(sep, e.consumed())) {
                start += e.consumed() + sep.length;
            } else {
                start = end;
            }
            if (start >= end) {
                start = end = 0;
            }
            maybeResumeTransport();
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private boolean startsWith(byte[] sep, int offset) {
        if (offset + sep.length > size()) {
            return false;
        }
        for (int j = 0; j < sep.length; j++) {
            if (buf[start + offset + j] != sep[j]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Coroutine: the bytes up to and including {@code separator}. At EOF without it: an
     * {@link IncompleteReadException} with what was there (expected null), the buffer emptied.
     * When the limit is hit: a {@link LimitOverrunException}, the data left in the buffer.
     */
    public byte[] readuntil(byte[] separator) throws IOException {
        return readuntilFirstOf(new byte[][] {separator});
    }

    /**
     * Coroutine: the bytes up to and including whichever of {@code separators} ends first in the
     * stream (asyncio 3.13's {@code readuntil} with a tuple); errors as {@link #readuntil(byte[])}.
     */
    public byte[] readuntil(List<byte[]> separators) throws IOException {
        if (separators.isEmpty()) {
            throw new IllegalArgumentException("Separator should contain at least one element");
        }
        byte[][] byLength = separators.toArray(new byte[0][]);
        Arrays.sort(byLength, Comparator.comparingInt(sep -> sep.length));
        return readuntilFirstOf(byLength);
    }

    /** {@code separators} sorted by length, shortest first. */
    private byte[] readuntilFirstOf(byte[][] separators) throws IOException {
        int minSeplen = separators[0].length;
        int maxSeplen = separators[separators.length - 1].length;
        if (minSeplen == 0) {
            throw new IllegalArgumentException("Separator should be at least one-byte string");
        }
        throwIfFailed();
        int offset = 0;
        int matchStart = -1;
        int matchEnd = -1;
        while (true) {
            int buflen = size();
            if (buflen - offset >= minSeplen) {
                for (byte[] sep : separators) {
                    int isep = indexOf(sep, offset);
                    if (isep != -1 && (matchEnd == -1 || isep + sep.length < matchEnd)) {
                        matchStart = isep;
                        matchEnd = isep + sep.length; // the match that ends first wins
                    }
                }
                if (matchEnd != -1) {
                    break;
                }
                offset = Math.max(0, buflen + 1 - maxSeplen);
                if (offset > limit) {
                    throw new LimitOverrunException("Separator is not found, and chunk exceed the limit", offset);
                }
            }
            if (eof) {
                byte[] chunk = take(size());
                throw new IncompleteReadException(chunk, null);
            }
            waitForData("readuntil");
            throwIfFailed();
        }
        if (matchStart > limit) {
            throw new LimitOverrunException("Separator is found, but chunk is longer than limit", matchStart);
        }
        byte[] chunk = take(matchEnd);
        maybeResumeTransport();
        return chunk;
    }

    public byte[] readuntil(String separator) throws IOException {
        return readuntil(separator.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Coroutine: up to {@code n} bytes, waiting only if none is buffered; empty at EOF. A negative
     * {@code n} reads everything up to EOF.
     */
    public byte[] read(int n) throws IOException {
        throwIfFailed();
        if (n == 0) {
            return new byte[0];
        }
        if (n < 0) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            while (true) {
                byte[] block = read(limit);
                if (block.length == 0) {
                    return all.toByteArray();
                }
                all.write(block);
            }
        }
        if (start == end && !eof) {
            waitForData("read");
            throwIfFailed();
        }
        byte[] data = take(Math.min(n, size()));
        maybeResumeTransport();
        return data;
    }

    /** Coroutine: exactly {@code n} bytes, or an {@link IncompleteReadException} with what came before EOF. */
    public byte[] readexactly(int n) throws IOException {
        if (n < 0) {
            throw new IllegalArgumentException("readexactly size can not be less than zero");
        }
        throwIfFailed();
        if (n == 0) {
            return new byte[0];
        }
        while (size() < n) {
            if (eof) {
                byte[] incomplete = take(size());
                throw new IncompleteReadException(incomplete, n);
            }
            waitForData("readexactly");
            throwIfFailed();
        }
        byte[] data = take(n);
        maybeResumeTransport();
        return data;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("<StreamReader");
        if (size() > 0) {
            s.append(' ').append(size()).append(" bytes");
        }
        if (eof) {
            s.append(" eof");
        }
        if (limit != DEFAULT_LIMIT) {
            s.append(" limit=").append(limit);
        }
        if (waiter != null) {
            s.append(" waiter=").append(waiter);
        }
        if (exception != null) {
            s.append(" exception=").append(exception);
        }
        if (transport != null) {
            s.append(" transport=").append(transport);
        }
        if (paused) {
            s.append(" paused");
        }
        return s.append('>').toString();
    }
}
