package io.jasyncio.nativeio;

import io.jasyncio.loop.spi.EventLoopProvider;

/**
 * A provider whose availability is settled once, when its class loads (the OS, native access,
 * a probe of its system calls): it gives its name and that reason, or null when it can run, and
 * implements only {@link #openBackend}.
 */
public abstract class NativeLoopProvider implements EventLoopProvider {
    private final String name;
    private final String unavailableReason;

    /** A provider called {@code name} that cannot run here for {@code unavailableReason}, or can when it is null. */
    protected NativeLoopProvider(String name, String unavailableReason) {
        this.name = name;
        this.unavailableReason = unavailableReason;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean isAvailable() {
        return unavailableReason == null;
    }

    @Override
    public final String unavailableReason() {
        return unavailableReason;
    }
}
