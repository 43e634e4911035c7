package io.jasyncio.http;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Host values as RFC 9110 §7.2 has them: uri-host [ ":" port ]. */
class HttpSyntaxTest {
    @Test
    void hostValues() {
        for (String ok : new String[] {"", "a", "example.com", "example.com:", "example.com:8080", "127.0.0.1:80",
                "[::1]", "[::1]:443", "[v1.x]", "a%2Fb", "a-b_c~d", "a!$&'()*+,;=b"}) {
            assertTrue(HttpSyntax.isHostValue(ok), ok);
        }
        for (String bad : new String[] {"a b/c", "a/b", "a b", "u@a", "a:8o", "a:80:81", "[::1", "[]", "[::1]x",
                "a%2", "a%zz", "a?b", "a#b", "a\\b", "ä"}) {
            assertFalse(HttpSyntax.isHostValue(bad), bad);
        }
    }
}
