package io.jasyncio.http;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Header fields: case-insensitive names, kept in order, a name may repeat; nothing that could split a message. */
class HttpHeadersTest {
    @Test
    void caseInsensitiveOrderedAndMultiValued() {
        HttpHeaders h = HttpHeaders.of("Set-Cookie", "a=1", "Content-Type", "text/plain", "set-cookie", "b=2");
        assertEquals("a=1", h.get("SET-COOKIE"));
        assertEquals(List.of("a=1", "b=2"), h.getAll("Set-Cookie"));
        assertEquals("set-cookie", h.name(2), "a name is kept as written");
        h.set("SET-COOKIE", "c=3");
        assertEquals(List.of("c=3"), h.getAll("set-cookie"));
        assertEquals(0, indexOf(h, "SET-COOKIE"), "set keeps the place of the first");
        assertTrue(h.remove("content-type"));
        assertFalse(h.contains("Content-Type"));
        assertNull(h.get("Content-Type"));
        assertEquals(1, h.size());
    }

    @Test
    void tokensInCommaSeparatedLists() {
        HttpHeaders h = HttpHeaders.of("Connection", "keep-alive, Upgrade", "Connection", " close ");
        assertTrue(h.containsToken("connection", "upgrade"));
        assertTrue(h.containsToken("Connection", "CLOSE"));
        assertFalse(h.containsToken("Connection", "keep"));
    }

    @Test
    void refusesWhatCouldSplitAMessage() {
        HttpHeaders h = new HttpHeaders();
        assertThrows(IllegalArgumentException.class, () -> h.add("X", "a\r\nInjected: yes"));
        assertThrows(IllegalArgumentException.class, () -> h.add("X", "a\nb"));
        assertThrows(IllegalArgumentException.class, () -> h.add("X", "a\u0000"));
        assertThrows(IllegalArgumentException.class, () -> h.add("Bad Name", "v"));
        assertThrows(IllegalArgumentException.class, () -> h.add("", "v"));
        assertThrows(IllegalArgumentException.class, () -> h.set("X", "a\r"));
        h.add("X", "tab\tand obs-text \u00e9 are fine");
        assertEquals(1, h.size());
    }

    @Test
    void aFrozenCopyRefusesChanges() {
        HttpHeaders h = HttpHeaders.of("A", "1");
        HttpHeaders frozen = h.frozenCopy();
        assertThrows(UnsupportedOperationException.class, () -> frozen.add("B", "2"));
        h.add("B", "2");
        assertEquals(1, frozen.size(), "a copy, not a view");
        assertEquals(frozen, HttpHeaders.of("a", "1"));
    }

    private static int indexOf(HttpHeaders h, String name) {
        for (int i = 0; i < h.size(); i++) {
            if (h.name(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
