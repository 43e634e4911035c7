package io.jasyncio.http;

/**
 * The methods a server implements and the header field names clients send most, as constant
 * strings: a parsed name found here costs no allocation. Names match byte for byte as written.
 */
final class KnownNames {
    private KnownNames() {
    }

    /**
     * The methods of RFC 9110 §9 and RFC 5789 (PATCH), with WebDAV's (RFC 4918) and PURGE; a
     * well-formed method outside them is answered 501 (RFC 9110 §9.1).
     */
    private static final String[] METHODS = {
            "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "CONNECT",
            "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "SEARCH", "PURGE",
    };

    private static final String[] HEADER_NAMES = {
            "Host", "host", "User-Agent", "user-agent", "Accept", "accept", "Connection", "connection",
            "Content-Length", "content-length", "Content-Type", "content-type", "Accept-Encoding",
            "accept-encoding", "Accept-Language", "accept-language", "Transfer-Encoding", "transfer-encoding",
            "Cookie", "cookie", "Expect", "expect", "Authorization", "authorization", "Cache-Control",
            "cache-control", "Date", "date", "Server", "server", "Keep-Alive", "keep-alive", "Upgrade",
            "Referer", "Origin", "If-None-Match", "If-Modified-Since", "Pragma", "Range",
    };

    static String method(byte[] bytes, int from, int length) {
        return find(METHODS, bytes, from, length);
    }

    static String headerName(byte[] bytes, int from, int length) {
        return find(HEADER_NAMES, bytes, from, length);
    }

    private static String find(String[] names, byte[] bytes, int from, int length) {
        for (String name : names) {
            if (name.length() == length && matches(name, bytes, from)) {
                return name;
            }
        }
        return null;
    }

    private static boolean matches(String name, byte[] bytes, int from) {
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) != bytes[from + i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code bytes[from, from + length)} is {@code lowerCase} in any ASCII case. */
    static boolean equalsIgnoreCase(byte[] bytes, int from, int length, String lowerCase) {
        if (length != lowerCase.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int b = bytes[from + i];
            if (b >= 'A' && b <= 'Z') {
                b += 32;
            }
            if (b != lowerCase.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
