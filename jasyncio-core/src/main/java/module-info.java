/**
 * jasyncio: asyncio's event loop in Java. Applications use the exported packages; the
 * {@code io.jasyncio.internal.*} packages are the plumbing between the layers, exported only to
 * this library's own loop and test modules.
 */
module io.jasyncio.core {
    // sun.misc.Signal, for loop.addSignalHandler and Ctrl-C in Runner
    requires jdk.unsupported;
    // the debug package's events (slow callbacks, the blocked loop, loop samples)
    requires jdk.jfr;

    exports io.jasyncio;
    exports io.jasyncio.context;
    exports io.jasyncio.debug;
    exports io.jasyncio.group;
    exports io.jasyncio.loop;
    exports io.jasyncio.net;
    exports io.jasyncio.subprocess;
    exports io.jasyncio.sync;
    exports io.jasyncio.task;

    // What the native loops (a Poller under BaseEventLoop) and @AsyncTest build on.
    exports io.jasyncio.internal.loop to io.jasyncio.epoll, io.jasyncio.uring, io.jasyncio.junit;

    uses io.jasyncio.loop.EventLoopProvider;
    uses io.jasyncio.loop.EventLoops.CreationListener;
    provides io.jasyncio.loop.EventLoops.CreationListener with io.jasyncio.debug.Doctor;
}
