package io.jasyncio.http;

/** RFC 9110/9112 character classes as lookup tables (tchar, field-vchar, request-target). */
final class HttpSyntax {
    private HttpSyntax() {
    }

    private static final boolean[] TCHAR = new boolean[256];
    private static final boolean[] FIELD_VALUE = new boolean[256];
    private static final boolean[] TARGET = new boolean[256];
    private static final boolean[] AUTHORITY = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
        // field-value: field-vchar (VCHAR / obs-text), SP and HTAB (RFC 9110 §5.5)
        for (int c = 0x21; c <= 0xFF; c++) {
            FIELD_VALUE[c] = c != 0x7F;
        }
        FIELD_VALUE[' '] = true;
        FIELD_VALUE['\t'] = true;
        // request-target: the visible ASCII characters (RFC 9112 §3.2 with RFC 3986's grammar
        // checked no further: a target is passed on as it was sent)
        for (int c = 0x21; c <= 0x7E; c++) {
            TARGET[c] = true;
        }
        // authority (RFC 3986 §3.2): unreserved, pct-encoded, sub-delims, ":", "@", and "[" "]" of IP literals
        for (int c = '0'; c <= '9'; c++) {
            AUTHORITY[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            AUTHORITY[c] = true;
            AUTHORITY[c - 32] = true;
        }
        for (char c : "-._~%!$&'()*+,;=:@[]".toCharArray()) {
            AUTHORITY[c] = true;
        }
    }

    static boolean isTchar(int b) {
        return TCHAR[b & 0xFF];
    }

    static boolean isFieldValueChar(int b) {
        return FIELD_VALUE[b & 0xFF];
    }

    static boolean isTargetChar(int b) {
        return TARGET[b & 0xFF];
    }

    static boolean isAuthorityChar(int b) {
        return AUTHORITY[b & 0xFF];
    }

    static boolean isToken(CharSequence s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0xFF || !TCHAR[c]) {
                return false;
            }
        }
        return true;
    }

    /** A field value one may send: field-vchar, SP, HTAB only (so no CR or LF to split a message with). */
    static boolean isFieldValue(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0xFF || !FIELD_VALUE[c]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A Host field value as RFC 9110 §7.2 allows it: {@code uri-host [ ":" port ]}, the host an IP
     * literal in brackets or a reg-name (unreserved, pct-encoded, sub-delims: so no space, no "/",
     * no "@"), the port digits; or empty (RFC 9112 §3.2: a target without an authority).
     */
    static boolean isHostValue(CharSequence s) {
        int n = s.length();
        int i = 0;
        if (n > 0 && s.charAt(0) == '[') { // IP-literal: IPv6address or IPvFuture, checked by its characters
            i = 1;
            while (i < n && s.charAt(i) != ']') {
                char c = s.charAt(i);
                if (c > 0x7F || c == '%' || c == '@' || c == '[' || !AUTHORITY[c]) {
                    return false;
                }
                i++;
            }
            if (i == n || i == 1) {
                return false;
            }
            i++;
        } else {
            while (i < n && s.charAt(i) != ':') {
                char c = s.charAt(i);
                if (c == '%') {
                    if (i + 2 >= n || hexValue(s.charAt(i + 1)) < 0 || hexValue(s.charAt(i + 2)) < 0) {
                        return false;
                    }
                    i += 3;
                    continue;
                }
                if (c > 0x7F || c == '@' || c == '[' || c == ']' || !AUTHORITY[c]) {
                    return false;
                }
                i++;
            }
        }
        if (i == n) {
            return true;
        }
        if (s.charAt(i) != ':') {
            return false;
        }
        for (i++; i < n; i++) { // port = *DIGIT
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    static int hexValue(int b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }
}
