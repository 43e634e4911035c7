package io.jasyncio.subprocess;

/** What starting a child at the protocol level yields: its transport and the protocol made for it. */
public record SubprocessConnection<P extends SubprocessProtocol>(SubprocessTransport transport, P protocol) {
}
