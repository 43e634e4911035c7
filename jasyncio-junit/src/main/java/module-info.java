/** {@code @AsyncTest} and {@code @OnEveryLoop}: JUnit Jupiter tests that run as tasks on a fresh loop. */
module io.jasyncio.junit {
    requires transitive io.jasyncio.core;
    requires transitive org.junit.jupiter.api;
    requires org.junit.platform.commons;
    requires org.opentest4j;

    exports io.jasyncio.junit;
}
