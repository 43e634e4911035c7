package io.jasyncio.http.codec;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpVersion;

/**
 * The rules both ends of an HTTP/1.1 connection apply to a message, whichever side sent it:
 * whether the connection persists after it, and whether a response hands the connection over to
 * another protocol.
 */
public final class ConnectionRules {
    private ConnectionRules() {
    }

    /**
     * Whether a message of {@code version} with {@code headers} lets the connection persist after
     * it (RFC 9112 §9.3): HTTP/1.1 unless {@code Connection: close}; HTTP/1.0 only with
     * {@code Connection: keep-alive} (and no {@code close}).
     */
    public static boolean keepsAlive(HttpVersion version, HttpHeaders headers) {
        if (headers.containsToken("Connection", "close")) {
            return false;
        }
        return version == HttpVersion.HTTP_1_1 || headers.containsToken("Connection", "keep-alive");
    }

    /**
     * Whether a response of {@code status} to a request ({@code connect}: a CONNECT; which asked to
     * {@code Upgrade}, or not) ends HTTP on the connection: a 2xx to CONNECT opens a tunnel
     * (RFC 9110 §9.3.6), a 101 to a request with {@code Upgrade} switches protocols (§7.8, §15.2.2).
     */
    public static boolean switchesProtocols(boolean connect, boolean upgradeRequested, int status) {
        return connect ? status / 100 == 2 : status == 101 && upgradeRequested;
    }
}
