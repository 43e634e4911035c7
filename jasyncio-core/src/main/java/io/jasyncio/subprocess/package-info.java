/**
 * asyncio's child processes: {@link io.jasyncio.subprocess.Subprocess} (asyncio's
 * {@code asyncio.subprocess.Process}: stdin, stdout and stderr as streams, {@code waitFor()},
 * {@code communicate()}, signals) and the protocol level beneath it
 * ({@link io.jasyncio.subprocess.SubprocessProtocol}, {@link io.jasyncio.subprocess.SubprocessTransport}).
 * The pipes are JDK pipe channels on the loop's poller; the exit comes from the JDK's reaper.
 */
package io.jasyncio.subprocess;
