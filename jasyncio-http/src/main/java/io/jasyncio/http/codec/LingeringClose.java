package io.jasyncio.http.codec;

/**
 * RFC 9112 §9.6's staged close, as decisions: a close with unread bytes in the socket makes the
 * kernel reset the connection, and a reset can destroy the response before the client reads it.
 * So when the client may still be sending, the server shuts its side first, reads and drops what
 * comes, and closes at the client's EOF, at the linger deadline ({@link ReceiveDeadlines#linger}),
 * or past a bound of bytes. Like nginx's {@code lingering_close on} and Go's
 * {@code closeWriteAndWait}; when nothing is left unread, the plain close loses nothing.
 */
public final class LingeringClose {
    private boolean active;
    private long bytesLeft;

    /**
     * Whether the client may still be sending: a request not parsed to its end
     * ({@code messageInProgress}: a body not read, say), requests held after it, or bytes of the
     * read being parsed after the current message.
     */
    public static boolean clientMaySend(boolean messageInProgress, boolean inputHeld, boolean readUnparsed) {
        return messageInProgress || inputHeld || readUnparsed;
    }

    /** Whether a close lingers: the client may send still and has not closed its side. */
    public static boolean lingers(boolean clientMaySend, boolean peerClosed) {
        return clientMaySend && !peerClosed;
    }

    /** The lingering begins: up to {@code boundBytes} are dropped. */
    public void begin(long boundBytes) {
        active = true;
        bytesLeft = boundBytes;
    }

    public boolean isActive() {
        return active;
    }

    /** {@code n} bytes arrived and were dropped; true when that passed the bound: the lingering ends, close now. */
    public boolean dropped(long n) {
        bytesLeft -= n;
        if (bytesLeft < 0) {
            active = false;
            return true;
        }
        return false;
    }

    /** The lingering ends (the client's EOF, the deadline, an abort). */
    public void end() {
        active = false;
    }
}
