package io.jasyncio.http.server.routing;

import io.jasyncio.http.HttpRequest;
import io.jasyncio.http.PercentDecoding;
import io.jasyncio.http.server.HttpHandler;

/**
 * One route: its pattern and its handler, either a whole-request one or a streaming one, and the
 * largest body it takes ({@code -1}: the server's limit alone).
 */
final class Route {
    final RoutePattern pattern;
    /** Null for a streaming route. */
    final HttpHandler whole;
    /** Null for a whole-request route. */
    final RoutedStreamingHandler streaming;
    final long maxBodySize;

    Route(RoutePattern pattern, HttpHandler whole, RoutedStreamingHandler streaming, long maxBodySize) {
        if (maxBodySize < -1) {
            throw new IllegalArgumentException("route `" + pattern + "`: body limit " + maxBodySize + " (-1: none of its own)");
        }
        this.pattern = pattern;
        this.whole = whole;
        this.streaming = streaming;
        this.maxBodySize = maxBodySize;
    }

    /**
     * {@code request} carrying this route's path parameters, decoded from the raw path
     * {@code target[from, to)} that the route matched.
     */
    HttpRequest withParameters(HttpRequest request, String target, int from, int to) {
        if (!pattern.hasParameters()) {
            return request;
        }
        String[] values = new String[pattern.parameterNames.length];
        int value = 0;
        int segment = from + 1;
        for (int i = 0; i < pattern.kinds.length; i++) {
            int slash = target.indexOf('/', segment, to);
            int end = slash < 0 ? to : slash;
            switch (pattern.kinds[i]) {
                case PARAMETER -> values[value++] = PercentDecoding.decode(target, segment, end, false);
                case REST -> values[value++] = PercentDecoding.decode(target, segment, to, false);
                case LITERAL -> {
                }
            }
            segment = end + 1;
        }
        return request.withPathParameters(pattern.parameterNames, values);
    }

    @Override
    public String toString() {
        return pattern.toString();
    }
}
