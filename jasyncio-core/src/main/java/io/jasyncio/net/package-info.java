/**
 * asyncio's networking: protocols and transports on the loop's own poller
 * ({@code addReader}/{@code addWriter} on non-blocking channels), servers, the low-level
 * socket coroutines, TLS layered as a protocol, and the streams API on top.
 *
 * <p>Methods documented as "coroutines" suspend the calling task until their result is ready
 * (as {@link io.jasyncio.Asyncio#sleep(double)} does): call them from inside a task.
 */
package io.jasyncio.net;
