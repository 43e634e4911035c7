package io.jasyncio.net;

/** What creating a datagram endpoint yields: its transport and protocol (asyncio's pair). */
public record DatagramEndpoint<P extends DatagramProtocol>(DatagramTransport transport, P protocol) {
}
