package io.jasyncio.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for the tests: objects become maps, arrays lists, numbers
 * doubles. Anything that is not well-formed JSON throws.
 */
final class TinyJson {
    private final String text;
    private int at;

    private TinyJson(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        TinyJson p = new TinyJson(text);
        Object v = p.value();
        p.skipSpace();
        if (p.at != text.length()) {
            throw p.error("trailing text");
        }
        return v;
    }

    private Object value() {
        skipSpace();
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return m;
        }
        while (true) {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            if (m.put(key, value()) != null) {
                throw error("duplicate key " + key);
            }
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return l;
        }
        while (true) {
            l.add(value());
            skipSpace();
            if (peek() == ',') {
                at++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder s = new StringBuilder();
        while (true) {
            char c = text.charAt(at++);
            if (c == '"') {
                return s.toString();
            }
            if (c < 0x20) {
                throw error("raw control character in a string");
            }
            if (c == '\\') {
                char e = text.charAt(at++);
                switch (e) {
                    case '"', '\\', '/' -> s.append(e);
                    case 'n' -> s.append('\n');
                    case 'r' -> s.append('\r');
                    case 't' -> s.append('\t');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case 'u' -> {
                        s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            } else {
                s.append(c);
            }
        }
    }

    private Double number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String n = text.substring(start, at);
        if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw error("bad number '" + n + "'");
        }
        return Double.parseDouble(n);
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("expected " + word);
        }
        at += word.length();
        return value;
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + at);
    }
}
