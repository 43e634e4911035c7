package io.jasyncio.poll;

import io.jasyncio.loop.spi.LoopBackend;
import io.jasyncio.loop.spi.LoopContract;
import io.jasyncio.nativeio.NativeLoopProvider;
import io.jasyncio.nativeio.LibC;
import io.jasyncio.nativeio.linux.EventFdSys;
import io.jasyncio.nativeio.linux.LinuxAvailability;

import java.io.IOException;

/**
 * Makes {@code EventLoops.newEventLoop("poll")} (and {@code -Djasyncio.loop=poll}) work: core's
 * loop over a {@link PollPoller}. Available where the kit's Linux part is (it wakes the loop with
 * an eventfd) and channel fds are readable; otherwise {@link #unavailableReason()} says why.
 */
public final class PollEventLoopProvider extends NativeLoopProvider {
    private static final String UNAVAILABLE_REASON = LinuxAvailability.unavailableReason(
            "poll", "cannot bind poll through the FFM API: ",
            () -> { // binds the C functions now: a missing one shows here, not in a loop
                LibC.link();
                EventFdSys.link();
                PollSys.link();
            });

    public PollEventLoopProvider() {
        super("poll", UNAVAILABLE_REASON);
    }

    @Override
    public LoopBackend openBackend(LoopContract loop) throws IOException {
        return LoopBackend.of(new PollPoller());
    }
}
