package io.jasyncio.lab.experiments;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A verdict comes only from checks: never printed unconditionally. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TrialTest {
    private static final Experiment DUMMY = new Experiment() {
        @Override
        public String name() {
            return "dummy";
        }

        @Override
        public String title() {
            return "Dummy";
        }

        @Override
        public String claim() {
            return "nothing";
        }

        @Override
        public void run(Trial trial) {
        }
    };

    private static Trial trial() {
        return new Trial(DUMMY, true, new PrintStream(new ByteArrayOutputStream()));
    }

    @Test
    void allChecksPassingHolds() {
        Trial t = trial();
        t.check(true, "a", "1");
        t.check(true, "b", "2");
        assertEquals(Verdict.HOLDS, t.result().verdict());
    }

    @Test
    void oneFailingCheckDoesNotHold() {
        Trial t = trial();
        t.check(true, "a", "1");
        t.check(false, "b", "2");
        assertEquals(Verdict.DOES_NOT_HOLD, t.result().verdict());
    }

    @Test
    void noChecksIsNotAPass() {
        assertEquals(Verdict.DOES_NOT_HOLD, trial().result().verdict());
    }

    @Test
    void aCheckThatCannotTellMakesTheVerdictInconclusive() {
        Trial t = trial();
        t.check(true, "a", "1");
        t.inconclusive("b", "within the spread (%.2fx)", 1.2);
        Result r = t.result();
        assertEquals(Verdict.INCONCLUSIVE, r.verdict());
        assertEquals("??", r.checks().get(1).mark());
        assertEquals(null, r.checks().get(1).outcome());
        assertEquals(0, Lab.exitCode(java.util.List.of(r)), "inconclusive is not a failure");
    }

    @Test
    void aFailedCheckOutweighsAnInconclusiveOne() {
        Trial t = trial();
        t.inconclusive("a", "noise");
        t.check(false, "b", "2");
        assertEquals(Verdict.DOES_NOT_HOLD, t.result().verdict());
    }

    @Test
    void skippingIsSaidAndIsNotAPass() {
        Trial t = trial();
        t.skip("only one loop");
        Result r = t.result();
        assertEquals(Verdict.SKIPPED, r.verdict());
        assertEquals("only one loop", r.skipReason());
    }

    @Test
    void aLabWithAFailureExitsNonZero() {
        Trial t = trial();
        t.check(false, "a", "1");
        assertEquals(1, Lab.exitCode(java.util.List.of(t.result())));
        Trial ok = trial();
        ok.skip("x");
        assertEquals(0, Lab.exitCode(java.util.List.of(ok.result())));
    }
}
