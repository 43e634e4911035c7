package io.jasyncio.http.codec;

/**
 * A floor under a transfer's rate: at least {@code bytesPerSecond} on average over the time
 * counted, once {@code graceSeconds} are counted (the codec's form of the server's
 * {@code MinDataRate}).
 *
 * @param bytesPerSecond the least average rate
 * @param graceSeconds   the time counted before the floor applies
 */
public record RateFloor(double bytesPerSecond, double graceSeconds) {
}
