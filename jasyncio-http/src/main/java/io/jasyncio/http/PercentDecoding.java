package io.jasyncio.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Percent-decoding of a request target's parts (RFC 3986 §2.1), read as UTF-8, leniently as
 * Python's {@code urllib.parse.unquote} is: a {@code %} not followed by two hex digits stays as
 * it is, and bytes that are not UTF-8 become U+FFFD. A part without {@code %} (nor, for a query,
 * {@code +}) is returned as it is, without a copy.
 */
public final class PercentDecoding {
    private PercentDecoding() {
    }

    /** {@code s}, percent-decoded: a path segment ({@code +} stays a plus). */
    public static String decode(String s) {
        return decode(s, 0, s.length(), false);
    }

    /**
     * {@code s.substring(from, to)}, percent-decoded; with {@code plusIsSpace}, a {@code +} is a
     * space, as in a query's names and values (HTML's {@code application/x-www-form-urlencoded}).
     */
    public static String decode(String s, int from, int to, boolean plusIsSpace) {
        int i = from;
        while (i < to) {
            char c = s.charAt(i);
            if (c == '%' || (plusIsSpace && c == '+')) {
                break;
            }
            i++;
        }
        if (i == to) {
            return from == 0 && to == s.length() ? s : s.substring(from, to);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
        int run = from; // the start of characters not yet appended
        while (i < to) {
            char c = s.charAt(i);
            int hi;
            int lo;
            if (c == '%' && i + 2 < to && (hi = hex(s.charAt(i + 1))) >= 0 && (lo = hex(s.charAt(i + 2))) >= 0) {
                appendUtf8(bytes, s, run, i);
                bytes.write(hi << 4 | lo);
                i += 3;
                run = i;
            } else if (plusIsSpace && c == '+') {
                appendUtf8(bytes, s, run, i);
                bytes.write(' ');
                run = ++i;
            } else {
                i++;
            }
        }
        appendUtf8(bytes, s, run, to);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * The parameters of a query or of an {@code application/x-www-form-urlencoded} body
     * ({@code a=1&b=x+y&a=2}): names and values decoded with {@code +} a space, each name with its
     * values in order; {@code a} and {@code a=} give {@code a} an empty value. Unmodifiable;
     * empty for null.
     */
    public static Map<String, List<String>> parameters(String query) {
        if (query == null || query.isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> all = new LinkedHashMap<>();
        int start = 0;
        while (start <= query.length()) {
            int amp = query.indexOf('&', start);
            int end = amp < 0 ? query.length() : amp;
            if (end > start) {
                int eq = query.indexOf('=', start, end);
                int nameEnd = eq < 0 ? end : eq;
                String name = decode(query, start, nameEnd, true);
                String value = nameEnd == end ? "" : decode(query, nameEnd + 1, end, true);
                all.computeIfAbsent(name, n -> new ArrayList<>(1)).add(value);
            }
            start = end + 1;
        }
        all.replaceAll((name, values) -> List.copyOf(values));
        return Collections.unmodifiableMap(all);
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    private static void appendUtf8(ByteArrayOutputStream out, String s, int from, int to) {
        if (from < to) {
            out.writeBytes(s.substring(from, to).getBytes(StandardCharsets.UTF_8));
        }
    }
}
