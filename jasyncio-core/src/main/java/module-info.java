/**
 * jasyncio: asyncio's event loop in Java. Applications use the exported packages. The others are
 * plumbing behind the {@code io.jasyncio.Asyncio} facade ({@code exec}, {@code interop},
 * {@code task.internal}), the nio backend's provider ({@code loop.internal}) or the doctor
 * ({@code debug.internal}); {@code io.jasyncio.util},
 * helpers under every layer, is exported only to this library's JUnit extension.
 */
@SuppressWarnings("module") // the qualified exports name modules built after this one
module io.jasyncio.core {
    // sun.misc.Signal, for loop.addSignalHandler and Ctrl-C in Runner
    requires jdk.unsupported;
    // the debug package's JFR events (slow callbacks, the blocked loop, loop samples) extend jdk.jfr.Event
    requires transitive jdk.jfr;
    // the loops' management beans and the task graph bean ./jasyncio ps reads (registered only when asked)
    requires java.management;

    exports io.jasyncio;
    exports io.jasyncio.context;
    exports io.jasyncio.debug;
    exports io.jasyncio.debug.graph;
    exports io.jasyncio.debug.management;
    exports io.jasyncio.group;
    exports io.jasyncio.loop;
    // what a backend implements and receives (the loop's SPI; the transport factory a backend offers)
    exports io.jasyncio.loop.spi;
    exports io.jasyncio.net;
    exports io.jasyncio.net.spi;
    exports io.jasyncio.subprocess;
    exports io.jasyncio.sync;
    exports io.jasyncio.task;

    // Throwables, for @AsyncTest's rethrow of a test body's own exception.
    exports io.jasyncio.util to io.jasyncio.junit;

    uses io.jasyncio.loop.spi.EventLoopProvider;
    provides io.jasyncio.loop.spi.EventLoopProvider with io.jasyncio.loop.internal.NioEventLoopProvider;
    uses io.jasyncio.loop.EventLoops.CreationListener;
    provides io.jasyncio.loop.EventLoops.CreationListener
            with io.jasyncio.debug.internal.Doctor, io.jasyncio.debug.management.LoopBeans;
}
