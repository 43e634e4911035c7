package io.jasyncio.debug.internal;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;
import io.jasyncio.testing.EveryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The doctor's checkup of a callback whose eager task step held the loop (an HTTP handler run
 * from the transport's read callback): the slow step is recorded under the task, the handle as
 * it was (the lab joins it to the watchdog's record by handle and step), and the watchdog's line
 * names the task too.
 */
@Timeout(30)
@EveryEngine
class LoopCheckupEagerStepTest {
    private static long verifyOnTheLoop(long nanos) {
        long end = System.nanoTime() + nanos;
        long spins = 0;
        while (System.nanoTime() < end && spins < 4_000_000_000L) {
            spins++;
        }
        return spins;
    }

    @Test
    void aSlowHandleIsRecordedUnderTheEagerTaskWhoseStepHeldTheLoop(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("doctor.tsv");
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream previousErr = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8)); // the watchdog's one line goes there
        try (DoctorLog log = new DoctorLog(file); EventLoop loop = EventLoops.newEventLoop()) {
            LoopCheckup checkup = new LoopCheckup(1, loop, log);
            loop.callSoon(() -> {
                Task<Void> task = Tasks.createEager(loop, () -> {
                    verifyOnTheLoop(300_000_000L);
                    sleep(0.01);
                    return null;
                }, "doctor-handler", null);
                task.addDoneCallback(f -> loop.stop());
            });
            loop.runForever();
            checkup.finish();
        } finally {
            System.setErr(previousErr);
        }
        List<String[]> records = Files.readAllLines(file).stream().map(line -> line.split("\t", -1)).toList();
        String handle = "<Handle io.jasyncio.debug.internal.LoopCheckupEagerStepTest lambda>";
        List<String[]> slow = records.stream().filter(f -> f[0].equals("slow") && f[6].equals(handle)).toList();
        assertEquals(1, slow.size(), Files.readString(file));
        assertEquals("doctor-handler", slow.getFirst()[5], "slow id ms awaits TASK handle step: " + String.join(" | ", slow.getFirst()));
        List<String[]> held = records.stream().filter(f -> f[0].equals("watchdog") && f[5].equals(handle)).toList();
        assertEquals(1, held.size(), Files.readString(file));
        assertEquals(slow.getFirst()[7], held.getFirst()[7], "the same step: the lab joins them");
        String line = stderr.toString(StandardCharsets.UTF_8);
        assertTrue(line.contains("by " + handle + "; in it, eager step of <Task pending name='doctor-handler'"), line);
    }
}
