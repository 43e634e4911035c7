package io.jasyncio.junit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Support is decided by the API present, not by a version string (the console launcher's manifest
 * says "1.11.4", the Platform's version). ConsoleLauncherTest and the consumer test run the
 * extension under real JUnits.
 */
class JupiterApiTest {
    @Test
    void theJupiterOfThisBuildHasEverythingTheExtensionNeeds() {
        assertEquals(List.of(), JupiterApi.missing(JupiterApi.NEEDED));
        JupiterApi.checkSupported();
    }

    @Test
    void aMissingMethodIsNamedInTheRefusal() {
        JupiterApi.Needed absent = new JupiterApi.Needed(ExtensionContext.class, "getEnclosingTestClassesOfTheFuture");
        List<JupiterApi.Needed> missing = JupiterApi.missing(List.of(absent, JupiterApi.NEEDED.getFirst()));
        assertEquals(List.of(absent), missing);
        assertEquals("jasyncio-junit needs JUnit Jupiter 5.10 or later; this test run's JUnit lacks "
                + "[ExtensionContext.getEnclosingTestClassesOfTheFuture]: raise the JUnit version in the build (e.g. its junit-bom)",
                JupiterApi.refusal(missing));
    }
}
