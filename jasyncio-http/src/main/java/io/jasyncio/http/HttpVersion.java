package io.jasyncio.http;

/** The two HTTP versions RFC 9112 defines for the 1.x wire format. */
public enum HttpVersion {
    HTTP_1_0("HTTP/1.0"),
    HTTP_1_1("HTTP/1.1");

    private final String text;

    HttpVersion(String text) {
        this.text = text;
    }

    /** The version as it stands on the wire, e.g. {@code HTTP/1.1}. */
    public String text() {
        return text;
    }

    /** Whether a connection of this version stays open by default (HTTP/1.1) or closes (HTTP/1.0). */
    public boolean keepsAliveByDefault() {
        return this == HTTP_1_1;
    }

    @Override
    public String toString() {
        return text;
    }
}
