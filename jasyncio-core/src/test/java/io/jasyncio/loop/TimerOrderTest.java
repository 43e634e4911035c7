package io.jasyncio.loop;

import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@EveryLoop
class TimerOrderTest {

    @Test
    void equalDeadlinesRunInSchedulingOrder() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<Integer> ran = new ArrayList<>();
            long when = loop.nanoTime() + 20_000_000L;
            for (int i = 0; i < 500; i++) {
                int index = i;
                loop.callAtNanos(when, () -> ran.add(index));
            }
            loop.callAtNanos(when, loop::stop);
            loop.runForever();
            assertEquals(IntStream.range(0, 500).boxed().toList(), ran);
        }
    }

    @Test
    void timersRunInDeadlineOrderWhateverTheSchedulingOrder() {
        try (EventLoop loop = EventLoops.newEventLoop()) {
            List<Integer> ran = new ArrayList<>();
            long base = loop.nanoTime() + 10_000_000L;
            int[] offsets = {7, 3, 9, 1, 5, 3, 0, 8, 2, 6, 4};
            for (int offset : offsets) {
                loop.callAtNanos(base + offset * 1_000_000L, () -> ran.add(offset));
            }
            loop.callAtNanos(base + 20_000_000L, loop::stop);
            loop.runForever();
            assertEquals(List.of(0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9), ran);
        }
    }
}
