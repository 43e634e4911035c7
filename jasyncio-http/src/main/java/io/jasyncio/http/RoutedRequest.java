package io.jasyncio.http;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request with the path parameters its route matched ({@link HttpRequest#withPathParameters}):
 * the parameters' names (shared by every request of the route) and their decoded values.
 */
final class RoutedRequest extends HttpRequest {
    private final String[] names;
    private final String[] values;

    RoutedRequest(String method, String target, HttpVersion version, HttpHeaders headers, byte[] body,
                  String[] names, String[] values) {
        super(method, target, version, headers, body);
        this.names = names;
        this.values = values;
    }

    @Override
    public String pathParameter(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        return null;
    }

    @Override
    public Map<String, String> pathParameters() {
        Map<String, String> all = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            all.put(names[i], values[i]);
        }
        return Collections.unmodifiableMap(all);
    }

    @Override
    public HttpRequest withBody(byte[] body) {
        return new RoutedRequest(method(), target(), version(), headers(), body, names, values);
    }
}
