package io.jasyncio.http.codec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** RFC 9112 §9.6's staged close, as decisions: when to linger, and the bound on what is dropped. */
class LingeringCloseTest {
    @Test
    void theClientMaySendWhileAMessageIsUnfinishedOrBytesWait() {
        assertFalse(LingeringClose.clientMaySend(false, false, false), "all parsed, nothing held: a plain close");
        assertTrue(LingeringClose.clientMaySend(true, false, false), "a body not read to its end");
        assertTrue(LingeringClose.clientMaySend(false, true, false), "pipelined requests held");
        assertTrue(LingeringClose.clientMaySend(false, false, true), "bytes after this message in the read");
    }

    @Test
    void aClientThatClosedItsSideIsNotWaitedFor() {
        assertTrue(LingeringClose.lingers(true, false));
        assertFalse(LingeringClose.lingers(true, true));
        assertFalse(LingeringClose.lingers(false, false));
    }

    @Test
    void droppingPastTheBoundEndsTheLingering() {
        LingeringClose linger = new LingeringClose();
        assertFalse(linger.isActive());
        linger.begin(100);
        assertTrue(linger.isActive());
        assertFalse(linger.dropped(60));
        assertFalse(linger.dropped(40), "exactly the bound: still lingering");
        assertTrue(linger.isActive());
        assertTrue(linger.dropped(1), "one byte past the bound: close now");
        assertFalse(linger.isActive());
    }

    @Test
    void anEndStopsIt() {
        LingeringClose linger = new LingeringClose();
        linger.begin(100);
        linger.end();
        assertFalse(linger.isActive());
    }
}
