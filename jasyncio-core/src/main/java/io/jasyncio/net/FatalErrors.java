package io.jasyncio.net;

import io.jasyncio.loop.EventLoop;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How transports report the error that ends a connection (asyncio's {@code _fatal_error}): an
 * {@link IOException} is part of life and only logged in debug mode, at DEBUG on
 * {@code io.jasyncio.net}: a peer's reset or broken pipe, and TLS failures too (a failed
 * handshake, bad records: {@code SSLException} is an {@code IOException}, as CPython's
 * {@code SSLError} is an {@code OSError}). Anything else (a protocol callback that threw) goes
 * to the loop's exception handler. Either way only that connection ends.
 */
final class FatalErrors {
    private static final System.Logger LOG = System.getLogger("io.jasyncio.net");

    private FatalErrors() {
    }

    static void report(EventLoop loop, Throwable exc, String message, BaseTransport transport, BaseProtocol protocol) {
        if (exc instanceof IOException) {
            if (loop.getDebug()) {
                try {
                    LOG.log(System.Logger.Level.DEBUG, transport + ": " + message, exc);
                } catch (VirtualMachineError e) {
                    throw e;
                } catch (Throwable loggingFailed) {
                    // a logger that cannot log (no descriptor left for its files, say) must not end the loop
                }
            }
            return;
        }
        callbackFailed(loop, message, exc, transport, protocol);
    }

    /** Reports a failure of a protocol's flow-control callback (the connection goes on). */
    static void callbackFailed(EventLoop loop, String message, Throwable exc, BaseTransport transport, BaseProtocol protocol) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("message", message);
        context.put("exception", exc);
        context.put("transport", transport);
        context.put("protocol", protocol);
        loop.callExceptionHandler(context);
    }
}
