package io.jasyncio.net;

/** What creating a connection yields: the transport and the protocol made for it (asyncio's pair). */
public record Connection<P extends BaseProtocol>(Transport transport, P protocol) {
}
