package io.jasyncio.debug;

import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.EventLoops;
import io.jasyncio.loop.Future;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Without {@code -Djasyncio.doctor} a program pays nothing for the doctor: its loops carry no
 * observer and keep their own exception handler, and no doctor thread runs. (With the property,
 * {@code DoctorCommandTest} in the lab runs programs under it.)
 */
class DoctorOffTest {
    @Test
    void withoutThePropertyALoopIsNotWatched() {
        assertNull(System.getProperty("jasyncio.doctor"), "this test needs the property unset");
        EventLoop loop = EventLoops.newEventLoop();
        try {
            Future<Void> turned = loop.createFuture();
            loop.callSoon(() -> turned.setResult(null));
            loop.runUntilComplete(turned); // a watched loop would have its heartbeat and observer by now
            assertNull(loop.getObserver(), "no observer on the loop's iteration");
            assertNull(loop.getExceptionHandler(), "the exception handler is the program's");
        } finally {
            loop.close();
        }
        assertEquals(0, Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("jasyncio-doctor")).count(), "no doctor thread");
    }
}
