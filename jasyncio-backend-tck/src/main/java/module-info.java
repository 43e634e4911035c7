/**
 * The backend test kit: {@code io.jasyncio.tck.BackendTck} runs core's contract suites against a
 * loop backend. A backend's tests call it from the class path (core's suites come with this
 * artifact, as core's test jar); the suites' JVM it starts puts core and the backend on the
 * module path.
 */
module io.jasyncio.tck {
    requires io.jasyncio.core;
    requires org.junit.platform.launcher;

    exports io.jasyncio.tck;

    uses io.jasyncio.loop.spi.EventLoopProvider;
}
