package io.jasyncio.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessCpuTest {
    @Test
    void seesTheCpuThisProcessBurns() throws Exception {
        ProcessCpu self = new ProcessCpu(ProcessHandle.current().pid());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double before = self.seconds();
        long start = threads.getCurrentThreadCpuTime();
        long spin = 0;
        while (threads.getCurrentThreadCpuTime() - start < 300_000_000L) {   // 0.3 s of this thread's CPU
            spin++;
        }
        double used = self.seconds() - before;
        // At least this thread's 0.3 s, less one clock tick of rounding at each end.
        assertTrue(used >= 0.28, "process CPU grew by " + used + " s after " + spin + " spins");
    }
}
