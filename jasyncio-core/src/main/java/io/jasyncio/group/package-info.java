/**
 * Several loops at once: {@link EventLoopGroup} runs N loops on N threads (one per core by
 * default), as Netty's event-loop groups do; {@link io.jasyncio.net.GroupServer} serves one port
 * on all of them.
 */
package io.jasyncio.group;
