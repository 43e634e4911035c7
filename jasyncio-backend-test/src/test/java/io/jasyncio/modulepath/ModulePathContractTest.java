package io.jasyncio.modulepath;

import io.jasyncio.tck.BackendTck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The counting backend is a module on the module path, as a third party's would be, and core's
 * loop suites and the network suites that use every poller operation pass on it there, run by the
 * published test kit ({@link BackendTck}). Not the whole every-loop set: nio already runs it, and
 * this backend's poller is nio's.
 */
class ModulePathContractTest {
    private static final Set<String> NETWORK_SUITES = Set.of("io.jasyncio.net.TcpEchoTest", "io.jasyncio.net.ServerTest",
            "io.jasyncio.net.HalfCloseTest", "io.jasyncio.net.FlowControlTest", "io.jasyncio.net.UdpTest");

    @Test
    @Timeout(360)
    void coresContractSuitesPassOnTheCountingBackendPluggedInOnTheModulePath() throws Exception {
        BackendTck.Result result = BackendTck.run("counting", List.of(Path.of("target", "classes")), List.of(),
                suite -> suite.matches("io\\.jasyncio\\.loop\\.[A-Za-z0-9]+Test") || NETWORK_SUITES.contains(suite), 5);
        assertTrue(result.providerCameFrom("counting", "io.jasyncio.backendtest"),
                "the counting provider came from its module on the module path:\n" + result.output());
        assertTrue(result.passed(), result.output());
        assertTrue(result.succeeded() >= 100, "the suites ran (succeeded " + result.succeeded() + "):\n" + result.output());
    }
}
