/**
 * HTTP/1.1 connection logic without I/O: state machines that are told what happened (a request
 * head parsed, a body ended, a handler began or ended its response) and answer what to do (parse
 * on, send 100 Continue, how to frame a response, keep the connection or close it). They name no
 * transport, task or loop type, so unit tests drive them directly. The server's connection
 * ({@code ServerConnectionState}) and the client's ({@code ClientConnectionState}) share
 * {@code ConnectionRules} and {@code OutgoingBody}; the classes of {@code http.server} and
 * {@code http.client} adapt them to a transport. The shape follows h11's {@code ConnectionState}.
 */
package io.jasyncio.http.codec;
