package io.jasyncio.http.codec;

/**
 * The deadlines and rate floors of a server's connections, in seconds of the loop's clock: what
 * {@link ReceiveDeadlines} and {@link SendDeadlines} apply. Made once per server.
 *
 * @param idle             a kept connection's wait for the next request to begin
 * @param head             a request head's wait for its end, from its first byte
 * @param bodyRead         the longest pause between two pieces of a request body
 * @param request          a whole request's wait, from its first byte to its end
 * @param linger           a lingering close's wait for the client's EOF
 * @param send             the longest time response bytes wait in the transport with none taken
 * @param requestBodyFloor the floor under a request body's rate, or null
 * @param responseFloor    the floor under the rate the client takes response bytes, or null
 */
public record ServerTimeouts(double idle, double head, double bodyRead, double request, double linger, double send,
                             RateFloor requestBodyFloor, RateFloor responseFloor) {
}
