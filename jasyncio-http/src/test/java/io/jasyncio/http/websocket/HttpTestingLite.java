package io.jasyncio.http.websocket;

/** Bounded waits for the WebSocket tests (each within its test's deadline). */
final class HttpTestingLite {
    private HttpTestingLite() {
    }

    /** Coroutine: waits, in 5 ms steps, until {@code condition} holds. */
    static void until(java.util.function.BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            io.jasyncio.Asyncio.sleep(0.005);
        }
    }
}
