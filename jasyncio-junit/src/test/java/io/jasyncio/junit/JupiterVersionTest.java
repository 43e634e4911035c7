package io.jasyncio.junit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The oldest JUnit Jupiter supported, and the sentence an older one gets (the consumer test runs 5.10 and 6 for real). */
class JupiterVersionTest {
    @Test
    void fiveTenAndLaterAreSupportedOlderAreNot() {
        assertTrue(JupiterVersion.supported("5.10.0"));
        assertTrue(JupiterVersion.supported("5.11.4"));
        assertTrue(JupiterVersion.supported("6.1.3"));
        assertFalse(JupiterVersion.supported("5.9.3"));
        assertFalse(JupiterVersion.supported("4.13"));
        assertTrue(JupiterVersion.supported("unknown"), "an unreadable version is given the benefit of the doubt");
    }

    @Test
    void theRefusalNamesTheVersionNeededAndTheOneFound() {
        assertEquals("jasyncio-junit needs JUnit Jupiter 5.10 or later; this test run has 5.9.3 (junit-jupiter-api): "
                + "raise the JUnit version in the build (e.g. its junit-bom)", JupiterVersion.refusal("5.9.3"));
    }

    @Test
    void theJupiterOfThisBuildPasses() {
        JupiterVersion.checkSupported();
    }
}
