package io.jasyncio.net;

import java.net.InetSocketAddress;

/**
 * How {@link Network#createConnection} connects (asyncio's {@code create_connection} keyword
 * arguments): TLS or not; happy eyeballs (RFC 8305): with {@code happyEyeballsDelay} set, the
 * next address is tried that many seconds after the previous attempt started (or at once when
 * it failed) and the first to connect wins, over addresses interleaved by family
 * ({@code interleave} of the first family first; 0 keeps the resolver's order, and with a delay
 * set it means 1, as in asyncio); the local address to bind before connecting; an overall
 * {@code timeout} in seconds for resolving and connecting (asyncio leaves that to
 * {@code wait_for}); and whether a failure of every address raises all errors as one
 * {@link io.jasyncio.task.ExceptionGroup} ({@code allErrors}) instead of asyncio's combined
 * {@link java.io.IOException}. Defaults: plain, one address after another, no local address,
 * no timeout.
 */
public record ConnectOptions(TlsOptions tls, double happyEyeballsDelay, int interleave,
                             InetSocketAddress localAddress, double timeout, boolean allErrors) {

    /**
     * Options as given; the factory {@link #defaults()} and the {@code with...} methods are the usual
     * way.
     */
    public ConnectOptions {
        if (!Double.isNaN(happyEyeballsDelay) && happyEyeballsDelay < 0) {
            throw new IllegalArgumentException("happyEyeballsDelay must be >= 0 (NaN: off), got " + happyEyeballsDelay);
        }
        if (interleave < 0) {
            throw new IllegalArgumentException("interleave must be >= 0, got " + interleave);
        }
        if (!Double.isNaN(timeout) && !(timeout > 0)) {
            throw new IllegalArgumentException("timeout must be a positive number of seconds (NaN: none), got " + timeout);
        }
    }

    /** A plain connection: no TLS, no happy eyeballs, no local address, no overall timeout. */
    public static ConnectOptions defaults() {
        return new ConnectOptions(null, Double.NaN, 0, null, Double.NaN, false);
    }

    /** These options over TLS as {@code value} says (null: plain). */
    public ConnectOptions withTls(TlsOptions value) {
        return new ConnectOptions(value, happyEyeballsDelay, interleave, localAddress, timeout, allErrors);
    }

    /** Happy eyeballs with this delay in seconds (asyncio recommends 0.25); NaN turns it off. */
    public ConnectOptions withHappyEyeballsDelay(double seconds) {
        return new ConnectOptions(tls, seconds, interleave, localAddress, timeout, allErrors);
    }

    /**
     * These options, interleaving address families as asyncio's {@code interleave} (0: keep the
     * resolver's order).
     */
    public ConnectOptions withInterleave(int value) {
        return new ConnectOptions(tls, happyEyeballsDelay, value, localAddress, timeout, allErrors);
    }

    /** Binds the socket to this address before connecting (port 0: any port). */
    public ConnectOptions withLocalAddress(InetSocketAddress value) {
        return new ConnectOptions(tls, happyEyeballsDelay, interleave, value, timeout, allErrors);
    }

    /** Gives up resolving and connecting after this many seconds ({@code TimeoutException}); NaN: never. */
    public ConnectOptions withTimeout(double seconds) {
        return new ConnectOptions(tls, happyEyeballsDelay, interleave, localAddress, seconds, allErrors);
    }

    /**
     * These options, reporting every address's error in one ExceptionGroup when all fail (asyncio's
     * {@code all_errors}).
     */
    public ConnectOptions withAllErrors(boolean value) {
        return new ConnectOptions(tls, happyEyeballsDelay, interleave, localAddress, timeout, value);
    }

    boolean happyEyeballs() {
        return !Double.isNaN(happyEyeballsDelay);
    }

    /** The interleave in effect: asyncio's default of 1 when happy eyeballs is on. */
    int effectiveInterleave() {
        return interleave == 0 && happyEyeballs() ? 1 : interleave;
    }
}
