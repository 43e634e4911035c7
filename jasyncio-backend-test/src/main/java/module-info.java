/**
 * A loop backend written outside core, as a third party would: nio's poller wrapped to count
 * its calls, plugged in through core's provider SPI ({@code uses EventLoopProvider}) with
 * nothing in core naming it. Test-only, never installed.
 */
module io.jasyncio.backendtest {
    requires io.jasyncio.core;

    provides io.jasyncio.loop.spi.EventLoopProvider with io.jasyncio.backendtest.CountingEventLoopProvider;
}
