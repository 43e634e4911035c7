package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Future;
import io.jasyncio.loop.TimerHandle;
import io.jasyncio.util.Throwables;
import io.jasyncio.task.TimeoutException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static io.jasyncio.task.Tasks.await;

/**
 * asyncio's {@code StreamReader}: a buffer the protocol feeds and coroutines read from. When the
 * buffer holds more than twice the limit, the transport stops reading until it drains back to
 * the limit, so a slow reader never makes memory grow without bound.
 *
 * <p>For bulk data, beside asyncio's reads (each returns a new array, a copy):
 * {@link #readView(int)} hands out the buffered bytes themselves, as a read-only view that is
 * valid until the reader is next fed (see there), and {@link #readinto(ByteBuffer)} copies them
 * once into the caller's own buffer. The buffer is on the heap while small and moves off it
 * (a direct buffer) once it grows to {@value #DIRECT_FROM} bytes, so a view of a large message
 * goes to a socket without the copy NIO makes of heap buffers.
 *
 * <p>Text: {@link #readLine(Charset)} is Java's {@code readLine} (a string without its line
 * ending, null at the end), beside asyncio's {@link #readline()} (the bytes with the ending).
 * A read timeout ({@link #setReadTimeout(double)}) fails a read that waits too long for bytes
 * with one timer for the whole connection, not one per read.
 */
public final class StreamReader {
    /** asyncio's default limit for a line or a readuntil chunk: 64 KiB. */
    public static final int DEFAULT_LIMIT = 64 * 1024;

    /** From this capacity on the buffer is direct (see the class comment). */
    static final int DIRECT_FROM = 32 * 1024;
    /** The most room a lent room grows to ({@link #lendRoom}): what one read of a readiness transport takes at most. */
    static final int MOST_ROOM = 256 * 1024;

    private final EventLoop loop;
    private final int limit;
    /** The first buffer's capacity, allocated at the first feed (an idle connection holds none). */
    private static final int FIRST_CAPACITY = 1024;
    private static final ByteBuffer NONE = ByteBuffer.allocate(0); // shared: nothing is ever put there

    private ByteBuffer buf = NONE;                        // only absolute get/put: position unused
    private ByteBuffer readOnly;                         // buf's read-only twin, for views; made on first use
    private int start;   // unread bytes are buf[start, end)
    private int end;
    private boolean eof;
    private Future<Void> waiter;
    private Throwable exception;
    private Transport transport;
    private boolean paused;
    private ByteBuffer lent;   // the room lent to a receive in flight (see lendRoom), or null
    private int lentAt;        // where in buf that room starts
    private int nextRoom = DIRECT_FROM; // the least room the next lendRoom offers (doubled while receives fill it)
    private long bytesInPlace; // bytes that arrived in a lent room, not copied (for tests and statistics)
    private long readTimeoutNanos;   // 0: none (see setReadTimeout)
    private long waitStartedNanos;   // when the pending waiter began to wait, on the loop's clock
    private TimerHandle readDeadline; // the one timer behind the read timeout, or null when none is due

    /** A reader on {@code loop} with asyncio's limit, {@link #DEFAULT_LIMIT}. */
    public StreamReader(EventLoop loop) {
        this(loop, DEFAULT_LIMIT);
    }

    /** A reader on {@code loop} whose lines and {@code readuntil} chunks hold at most {@code limit} bytes. */
    public StreamReader(EventLoop loop, int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("Limit cannot be <= 0");
        }
        this.loop = loop;
        this.limit = limit;
    }

    /** The most a line or a {@code readuntil} chunk may hold ({@link #DEFAULT_LIMIT} unless given). */
    public int limit() {
        return limit;
    }

    /**
     * Makes a read fail with a {@link TimeoutException} when it has waited {@code seconds} for
     * bytes and none came (as a socket's {@code SO_TIMEOUT}; Netty's read timeout); 0 turns it
     * off. Only the waiting read fails: the bytes already buffered stay, the connection stays
     * open, and the next read waits afresh (close the connection to end it).
     *
     * <p>Cheap for a busy connection: one timer for the reader, not one per read (a
     * {@code timeout()} around each read schedules and cancels a timer each time). The timer is
     * set for the first wait; when it fires and the read waiting then began later, it is set
     * again for that read's deadline, Netty's {@code IdleStateHandler} way.
     */
    public void setReadTimeout(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("read timeout must be a finite number of seconds >= 0, not " + seconds);
        }
        readTimeoutNanos = (long) (seconds * 1e9);
        if (readTimeoutNanos == 0 && readDeadline != null) {
            readDeadline.cancel();
            readDeadline = null;
        }
    }

    /** The read timeout in seconds ({@link #setReadTimeout(double)}); 0 when there is none. */
    public double readTimeout() {
        return readTimeoutNanos / 1e9;
    }

    // ---- the feeding side (the protocol) --------------------------------------------------------

    /** The error every read fails with from now on (set by the protocol), or null. */
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

    /** The transport to pause and resume for flow control; set once, by the protocol. */
    public void setTransport(Transport transport) {
        if (this.transport != null) {
            throw new IllegalStateException("Transport already set");
        }
        this.transport = transport;
    }

    /** The stream ended: a waiting read wakes, and reads return what is left, then EOF. */
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
        if (lent != null) {
            leaveLentRoom();
        }
        ensureRoom(n);
        buf.put(end, data, data.position(), n);
        data.position(data.limit());
        fed(n);
    }

    /** Whether {@link #lendRoom()} would lend room (once the buffer is direct, it always does until EOF). */
    boolean canLendRoom() {
        return !eof && lent == null && buf.isDirect();
    }

    /**
     * For the transport's next read (at once on a readiness loop, or a receive that completes later
     * on a proactor one, see {@code LendingProtocol}): the free room after the unread
     * bytes, at least {@value #DIRECT_FROM} bytes (the unread bytes are moved to the front, or
     * into a bigger buffer, first if need be), lent until {@link #lentRoomFilled} or
     * {@link #lentRoomReturned}; null when the buffer is not direct yet (or at EOF). The kernel
     * may write the room at any moment meanwhile, so nothing here writes there: reads go on, and
     * a {@link #feedData} meanwhile moves the unread bytes to a new buffer, leaving the room to
     * the kernel (its bytes are then copied in when they arrive).
     */
    ByteBuffer lendRoom() {
        if (!canLendRoom()) {
            return null;
        }
        if (start == end) {
            start = end = 0;
        }
        if (buf.capacity() - end < nextRoom) {
            ensureRoom(nextRoom);
        }
        lentAt = end;
        lent = buf.slice(end, buf.capacity() - end);
        return lent;
    }

    /**
     * {@code n} bytes arrived in {@code room} (from its start), lent by {@link #lendRoom()}: as
     * {@link #feedData} of them, without the copy unless the reader left the room meanwhile.
     */
    void lentRoomFilled(ByteBuffer room, int n) {
        if (lent != room) {
            feedData(room.slice(0, n)); // fed meanwhile: the room is no longer where the unread bytes end
            return;
        }
        lent = null;
        if (eof) {
            throw new IllegalStateException("feed_data after feed_eof");
        }
        if (n == room.capacity()) { // the receive filled the room, so it may have left bytes behind
            nextRoom = Math.min(Math.max(nextRoom, n) * 2, MOST_ROOM);
        }
        if (start == end) {
            start = end = lentAt; // read empty meanwhile (and maybe rewound): the bytes are where they landed
        }
        bytesInPlace += n;
        fed(n);
    }

    /** How many bytes arrived in a room this reader lent, without a copy. */
    long bytesReceivedInPlace() {
        return bytesInPlace;
    }

    /** The receive that {@code room} was lent to ended without bytes (cancelled, EOF, an error). */
    void lentRoomReturned(ByteBuffer room) {
        if (lent == room) {
            lent = null;
        }
    }

    /** A feed while the room is lent: the unread bytes move to a new buffer, and the room stays the kernel's. */
    private void leaveLentRoom() {
        moveUnreadTo(ByteBuffer.allocateDirect(buf.capacity()));
        lent = null;
    }

    /** {@code n} bytes were appended at {@code end}: wake the reader, pause the transport if over. */
    private void fed(int n) {
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

    /** Appends {@code data} (copied), as {@link #feedData(ByteBuffer)}. */
    public void feedData(byte[] data) {
        feedData(ByteBuffer.wrap(data));
    }

    /**
     * Makes room for {@code n} more bytes at {@code end}: moves the unread bytes to the front, or
     * into a bigger buffer. Either may overwrite or abandon bytes a view still shows, which is
     * why a view lives only until the next feed.
     */
    private void ensureRoom(int n) {
        if (end + n <= buf.capacity()) {
            return;
        }
        int size = size();
        if (size + n <= buf.capacity() && start > 0) {
            buf.put(0, buf, start, size);
            start = 0;
            end = size;
        } else {
            int capacity = Math.max(Math.max(buf.capacity() * 2, size + n), FIRST_CAPACITY);
            moveUnreadTo(capacity >= DIRECT_FROM ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity));
        }
    }

    /** The unread bytes move to the front of {@code fresh}, which becomes the buffer (views of the old one are dropped). */
    private void moveUnreadTo(ByteBuffer fresh) {
        int size = size();
        fresh.put(0, buf, start, size);
        buf = fresh;
        readOnly = null;
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
        if (readTimeoutNanos > 0) {
            startReadDeadline();
        }
        try {
            await(waiter);
        } finally {
            waiter = null;
        }
    }

    /** A wait begins: the one timer is set unless it is already due earlier (see {@link #setReadTimeout}). */
    private void startReadDeadline() {
        waitStartedNanos = loop.nanoTime();
        if (readDeadline == null) {
            readDeadline = loop.callAtNanos(waitStartedNanos + readTimeoutNanos, this::readDeadlinePassed);
        }
    }

    /** The timer fired: fail the waiting read if it has waited long enough, else set the timer for it. */
    private void readDeadlinePassed() {
        readDeadline = null;
        Future<Void> w = waiter;
        if (w == null || w.isDone() || readTimeoutNanos == 0) {
            return; // nobody waits: the next wait sets the timer again
        }
        long due = waitStartedNanos + readTimeoutNanos;
        if (loop.nanoTime() < due) {
            readDeadline = loop.callAtNanos(due, this::readDeadlinePassed);
            return;
        }
        waiter = null;
        w.setException(new TimeoutException("no bytes came for " + readTimeout()
                + " s while a read waited (StreamReader.setReadTimeout)"));
    }

    private void throwIfFailed() {
        if (exception != null) {
            throw Throwables.sneakyThrow(exception);
        }
    }

    private byte[] take(int n) {
        byte[] out = new byte[n];
        buf.get(start, out, 0, n);
        consume(n);
        return out;
    }

    /** The next {@code n} unread bytes as a read-only view of the buffer, consumed. */
    private ByteBuffer takeView(int n) {
        if (readOnly == null) {
            readOnly = buf.asReadOnlyBuffer();
        }
        ByteBuffer view = readOnly.slice(start, n);
        consume(n);
        return view;
    }

    private void consume(int n) {
        start += n;
        if (start == end) {
            start = end = 0;
        }
    }

    private int indexOf(byte[] sep, int from) {
        int last = end - sep.length;
        outer:
        for (int i = start + from; i <= last; i++) {
            for (int j = 0; j < sep.length; j++) {
                if (buf.get(i + j) != sep[j]) {
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

    /**
     * Coroutine: the next line as text, decoded with {@code charset}, without its line ending
     * ({@code "\n"} or {@code "\r\n"}), as Java's {@code BufferedReader.readLine}; at EOF a last
     * partial line as it is, then null. A line longer than the limit: as {@link #readline()}.
     */
    public String readLine(Charset charset) throws IOException {
        byte[] line = readline();
        int n = line.length;
        if (n == 0) {
            return null;
        }
        if (line[n - 1] == '\n') {
            n -= n >= 2 && line[n - 2] == '\r' ? 2 : 1;
        }
        return new String(line, 0, n, charset);
    }

    private boolean startsWith(byte[] sep, int offset) {
        if (offset + sep.length > size()) {
            return false;
        }
        for (int j = 0; j < sep.length; j++) {
            if (buf.get(start + offset + j) != sep[j]) {
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

    /** Coroutine: as {@link #readuntil(byte[])} with {@code separator} encoded in UTF-8. */
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

    /**
     * Coroutine: as {@link #read(int)} (up to {@code n} bytes, waiting only if none is buffered,
     * empty at EOF, everything up to EOF for a negative {@code n}), but without copying: the
     * bytes are returned as a read-only view of the reader's own buffer, from position 0 to its
     * limit. This is the read for bytes that are only passed on, such as to
     * {@link StreamWriter#write(ByteBuffer)}.
     *
     * <p>Lifetime: the view shows these bytes only until the reader is next fed, and the reader is
     * fed by the loop while the calling task is suspended. So use the view before this task next
     * waits (an {@code await} that suspends: {@code drain()}, another read, a sleep) and do not
     * keep it. {@code writer.write(view)} is safe: the transport sends what the socket takes at
     * once and copies the rest before it returns (over TLS, encrypts it at once, or copies it while
     * the handshake runs). To keep bytes longer, copy them ({@link #read(int)},
     * {@link #readinto(ByteBuffer)}).
     */
    public ByteBuffer readView(int n) throws IOException {
        throwIfFailed();
        if (n < 0) {
            while (!eof) {
                waitForData("readView");
                throwIfFailed();
            }
            return takeView(size());
        }
        if (n > 0 && start == end && !eof) {
            waitForData("readView");
            throwIfFailed();
        }
        ByteBuffer view = takeView(Math.min(n, size()));
        maybeResumeTransport();
        return view;
    }

    /**
     * Coroutine: copies up to {@code dst.remaining()} bytes into {@code dst} (advancing its
     * position), waiting only if none is buffered, and returns how many: 0 at EOF (or when
     * {@code dst} has no room), as asyncio's {@code sock_recv_into}. The one copy from the
     * reader's buffer into a buffer the caller reuses; no array per read.
     */
    public int readinto(ByteBuffer dst) throws IOException {
        throwIfFailed();
        int room = dst.remaining();
        if (room == 0) {
            return 0;
        }
        if (start == end && !eof) {
            waitForData("readinto");
            throwIfFailed();
        }
        int n = Math.min(room, size());
        dst.put(dst.position(), buf, start, n);
        dst.position(dst.position() + n);
        consume(n);
        maybeResumeTransport();
        return n;
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
