package io.jasyncio.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The flags the benchmarks fork with are exactly the parent pom's {@code jasyncio.jvmFlags}. */
class JvmFlagsTest {
    @Test
    void forkFlagsMatchThePom() throws IOException {
        Properties props = new Properties();
        try (InputStream in = JvmFlags.class.getResourceAsStream("/jasyncio-bench.properties")) {
            assertNotNull(in, "jasyncio-bench.properties is missing from the classpath");
            props.load(in);
        }
        List<String> fromPom = Arrays.asList(props.getProperty("jvmFlags").trim().split("\\s+"));
        assertEquals(fromPom, List.of(JvmFlags.ADD_EXPORTS, JvmFlags.VM_INTERNALS, JvmFlags.ADD_EXPORTS,
                JvmFlags.NIO_INTERNALS, JvmFlags.NATIVE_ACCESS));
    }
}
