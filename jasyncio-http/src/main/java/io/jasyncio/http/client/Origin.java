package io.jasyncio.http.client;

import java.net.URI;
import java.util.Locale;

/**
 * Where a request goes, as far as pooling cares (RFC 6454's origin): the scheme, the host and the
 * port. Requests to one origin share its connections.
 */
record Origin(boolean secure, String host, int port) {

    static Origin of(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean secure = switch (scheme) {
            case "http" -> false;
            case "https" -> true;
            default -> throw new IllegalArgumentException("only http and https URIs are supported, got " + uri);
        };
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("the URI has no host: " + uri);
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1); // an IPv6 literal, as the resolver takes it
        }
        int port = uri.getPort() != -1 ? uri.getPort() : secure ? 443 : 80;
        return new Origin(secure, host.toLowerCase(Locale.ROOT), port);
    }

    /** The {@code Host} header's value (RFC 9110 7.2): the port only when it is not the scheme's default. */
    String hostHeader() {
        String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (secure ? 443 : 80) ? name : name + ":" + port;
    }

    @Override
    public String toString() {
        return (secure ? "https://" : "http://") + hostHeader();
    }
}
