package io.jasyncio.lab.experiments;

/**
 * One measured condition behind a verdict: what must be true, whether it was, and the numbers
 * that decided it.
 */
public record Check(String expectation, boolean passed, String evidence) {
}
