package io.jasyncio.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Header fields in the order they came or were added: names compare case-insensitively, a name
 * may repeat (each occurrence keeps its own value). Added names must be tokens and values may
 * hold no CR, LF or other control character, so a message built from them cannot be split.
 * A frozen instance ({@link #frozenCopy()}) refuses changes.
 */
public final class HttpHeaders {
    private static final String[] NONE = new String[0];
    private static final HttpHeaders EMPTY = new HttpHeaders(0).freezeInPlace();

    /** Name, value, name, value...: one array, not two (a request's headers are one allocation less). */
    private String[] fields;
    private int size;
    private boolean frozen;

    public HttpHeaders() {
        this(8);
    }

    private HttpHeaders(int capacity) {
        fields = capacity == 0 ? NONE : new String[2 * capacity];
    }

    /** No header fields, frozen. */
    public static HttpHeaders empty() {
        return EMPTY;
    }

    /** Fields from alternating names and values: {@code of("Content-Type", "text/plain", "X-A", "1")}. */
    public static HttpHeaders of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must alternate");
        }
        HttpHeaders headers = new HttpHeaders(Math.max(namesAndValues.length / 2, 1));
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }

    /** Appends a field (after the others, even of the same name). */
    public HttpHeaders add(String name, String value) {
        checkWritable();
        if (!HttpSyntax.isToken(Objects.requireNonNull(name, "name"))) {
            throw new IllegalArgumentException("not a field name (RFC 9110 token): " + name);
        }
        if (!HttpSyntax.isFieldValue(Objects.requireNonNull(value, "value"))) {
            throw new IllegalArgumentException("field value with a control character (CR, LF, NUL...): " + name);
        }
        addParsed(name, value);
        return this;
    }

    /** Replaces every field named {@code name} with one, in the place of the first. */
    public HttpHeaders set(String name, String value) {
        checkWritable();
        int first = indexOf(name);
        if (first < 0) {
            return add(name, value);
        }
        if (!HttpSyntax.isFieldValue(Objects.requireNonNull(value, "value"))) {
            throw new IllegalArgumentException("field value with a control character (CR, LF, NUL...): " + name);
        }
        fields[2 * first + 1] = value;
        removeFrom(name, first + 1);
        return this;
    }

    /** Removes every field named {@code name}; true if there was one. */
    public boolean remove(String name) {
        checkWritable();
        int before = size;
        removeFrom(name, 0);
        return size != before;
    }

    private void removeFrom(String name, int from) {
        int kept = from;
        for (int i = from; i < size; i++) {
            if (!fields[2 * i].equalsIgnoreCase(name)) {
                fields[2 * kept] = fields[2 * i];
                fields[2 * kept + 1] = fields[2 * i + 1];
                kept++;
            }
        }
        Arrays.fill(fields, 2 * kept, 2 * size, null);
        size = kept;
    }

    /** The first value of {@code name}, or null. */
    public String get(String name) {
        int i = indexOf(name);
        return i < 0 ? null : fields[2 * i + 1];
    }

    /** Every value of {@code name}, in order (empty if none). */
    public List<String> getAll(String name) {
        List<String> all = new ArrayList<>(2);
        for (int i = 0; i < size; i++) {
            if (fields[2 * i].equalsIgnoreCase(name)) {
                all.add(fields[2 * i + 1]);
            }
        }
        return all;
    }

    public boolean contains(String name) {
        return indexOf(name) >= 0;
    }

    /**
     * Whether any field {@code name}, read as a comma-separated list, holds {@code token}
     * (case-insensitively): {@code containsToken("Connection", "close")}.
     */
    public boolean containsToken(String name, String token) {
        for (int i = 0; i < size; i++) {
            if (fields[2 * i].equalsIgnoreCase(name) && listContains(fields[2 * i + 1], token)) {
                return true;
            }
        }
        return false;
    }

    private static boolean listContains(String list, String token) {
        int n = list.length();
        int start = 0;
        while (start <= n) {
            int comma = list.indexOf(',', start);
            int end = comma < 0 ? n : comma;
            int a = start;
            int b = end;
            while (a < b && isOws(list.charAt(a))) {
                a++;
            }
            while (b > a && isOws(list.charAt(b - 1))) {
                b--;
            }
            if (b - a == token.length() && list.regionMatches(true, a, token, 0, b - a)) {
                return true;
            }
            if (comma < 0) {
                return false;
            }
            start = comma + 1;
        }
        return false;
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    private int indexOf(String name) {
        for (int i = 0; i < size; i++) {
            if (fields[2 * i].equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The number of fields (a repeated name counts each time). */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The name of field {@code i} (0-based, in order), as it was written. */
    public String name(int i) {
        Objects.checkIndex(i, size);
        return fields[2 * i];
    }

    /** The value of field {@code i}, without leading or trailing whitespace. */
    public String value(int i) {
        Objects.checkIndex(i, size);
        return fields[2 * i + 1];
    }

    /** A frozen copy (this one if already frozen). */
    public HttpHeaders frozenCopy() {
        if (frozen) {
            return this;
        }
        HttpHeaders copy = new HttpHeaders(size);
        System.arraycopy(fields, 0, copy.fields, 0, 2 * size);
        copy.size = size;
        return copy.freezeInPlace();
    }

    /** A changeable copy. */
    public HttpHeaders copy() {
        HttpHeaders copy = new HttpHeaders(Math.max(size, 4));
        System.arraycopy(fields, 0, copy.fields, 0, 2 * size);
        copy.size = size;
        return copy;
    }

    public boolean isFrozen() {
        return frozen;
    }

    /** For the parser: a field already checked against RFC 9112's grammar. */
    void addParsed(String name, String value) {
        if (2 * size == fields.length) {
            fields = Arrays.copyOf(fields, 2 * Math.max(4, size * 2));
        }
        fields[2 * size] = name;
        fields[2 * size + 1] = value;
        size++;
    }

    HttpHeaders freezeInPlace() {
        frozen = true;
        return this;
    }

    private void checkWritable() {
        if (frozen) {
            throw new UnsupportedOperationException("these header fields are frozen: change a copy (HttpResponse.withHeader, or HttpHeaders.copy())");
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HttpHeaders other) || other.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (!fields[2 * i].equalsIgnoreCase(other.fields[2 * i]) || !fields[2 * i + 1].equals(other.fields[2 * i + 1])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = size;
        for (int i = 0; i < size; i++) {
            h = 31 * h + fields[2 * i + 1].hashCode();
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < size; i++) {
            sb.append(i == 0 ? "" : ", ").append(fields[2 * i]).append(": ").append(fields[2 * i + 1]);
        }
        return sb.append('}').toString();
    }
}
