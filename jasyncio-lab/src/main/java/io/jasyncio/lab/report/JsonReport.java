package io.jasyncio.lab.report;

import io.jasyncio.lab.experiments.Check;
import io.jasyncio.lab.experiments.Result;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lab's results as JSON, written by hand (no library):
 * {@code {"experiments": [{"name", "title", "claim", "verdict", "measurements", "checks", ...}]}}.
 */
public final class JsonReport {
    private JsonReport() {
    }

    public static String render(List<Result> results) {
        StringBuilder s = new StringBuilder();
        s.append("{\n  \"experiments\": [");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("name", r.name());
            e.put("title", r.title());
            e.put("claim", r.claim());
            e.put("verdict", r.verdict().label());
            if (r.skipReason() != null) {
                e.put("skipReason", r.skipReason());
            }
            e.put("seconds", r.seconds());
            e.put("measurements", r.measurements());
            e.put("checks", r.checks().stream().map(JsonReport::check).toList());
            s.append(i == 0 ? "\n    " : ",\n    ");
            value(s, e);
        }
        s.append("\n  ]\n}\n");
        return s.toString();
    }

    private static Map<String, Object> check(Check c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("expectation", c.expectation());
        m.put("passed", c.passed());
        m.put("evidence", c.evidence());
        return m;
    }

    /** Writes a string, number, boolean, null, collection, double[] or map as a JSON value. */
    static void value(StringBuilder s, Object v) {
        switch (v) {
            case null -> s.append("null");
            case String str -> string(s, str);
            case Boolean b -> s.append(b);
            case Double d -> number(s, d);
            case Float f -> number(s, f);
            case Number n -> s.append(n.longValue());
            case double[] a -> {
                s.append('[');
                for (int i = 0; i < a.length; i++) {
                    s.append(i == 0 ? "" : ", ");
                    number(s, a[i]);
                }
                s.append(']');
            }
            case Collection<?> c -> {
                s.append('[');
                boolean first = true;
                for (Object o : c) {
                    s.append(first ? "" : ", ");
                    first = false;
                    value(s, o);
                }
                s.append(']');
            }
            case Map<?, ?> m -> {
                s.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    s.append(first ? "" : ", ");
                    first = false;
                    string(s, String.valueOf(e.getKey()));
                    s.append(": ");
                    value(s, e.getValue());
                }
                s.append('}');
            }
            default -> string(s, v.toString());
        }
    }

    private static void number(StringBuilder s, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            s.append("null"); // JSON has no NaN or infinity
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            s.append((long) d);
        } else {
            s.append(d);
        }
    }

    static void string(StringBuilder s, String str) {
        s.append('"');
        for (int i = 0; i < str.length(); i++) {
            char c = str.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        s.append('"');
    }
}
