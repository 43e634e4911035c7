package io.jasyncio.http.websocket.codec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One entry of a {@code Sec-WebSocket-Extensions} field (RFC 6455 §9.1): a name and its
 * parameters, a parameter without a value mapping to null. A parameter given twice makes the
 * entry {@link #malformed()}.
 */
public record ExtensionOffer(String name, Map<String, String> parameters, boolean malformed) {
    /** Parses the field's values (each a comma-separated list of extensions). */
    public static List<ExtensionOffer> parse(List<String> fieldValues) {
        List<ExtensionOffer> offers = new ArrayList<>();
        for (String value : fieldValues) {
            for (String entry : splitOutsideQuotes(value, ',')) {
                List<String> parts = splitOutsideQuotes(entry, ';');
                String name = parts.getFirst().trim().toLowerCase(Locale.ROOT);
                if (name.isEmpty()) {
                    continue;
                }
                Map<String, String> parameters = new LinkedHashMap<>();
                boolean malformed = false;
                for (String part : parts.subList(1, parts.size())) {
                    int eq = part.indexOf('=');
                    String key = (eq < 0 ? part : part.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
                    String v = eq < 0 ? null : unquote(part.substring(eq + 1).trim());
                    malformed |= key.isEmpty() || parameters.containsKey(key);
                    parameters.put(key, v);
                }
                offers.add(new ExtensionOffer(name, parameters, malformed));
            }
        }
        return offers;
    }

    private static List<String> splitOutsideQuotes(String s, char separator) {
        List<String> parts = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == separator && !quoted) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts;
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
    }
}
