package io.jasyncio.loop;

import io.jasyncio.loop.spi.IoRegistration;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The loop's reach into an {@link IoRegistration}'s reader and writer handles: private fields of
 * the SPI class (a backend must not see or set them) that the loop class reads at every readiness
 * event. Both packages sit in this module, which opens its packages to itself, so a private lookup
 * reaches the fields without making them public; plain {@link VarHandle} access compiles to field
 * access.
 */
final class RegistrationHandles {
    private static final VarHandle READER;
    private static final VarHandle WRITER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(IoRegistration.class, MethodHandles.lookup());
            READER = lookup.findVarHandle(IoRegistration.class, "reader", Handle.class);
            WRITER = lookup.findVarHandle(IoRegistration.class, "writer", Handle.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private RegistrationHandles() {
    }

    static Handle reader(IoRegistration registration) {
        return (Handle) READER.get(registration);
    }

    static Handle writer(IoRegistration registration) {
        return (Handle) WRITER.get(registration);
    }

    static void setReader(IoRegistration registration, Handle handle) {
        READER.set(registration, handle);
    }

    static void setWriter(IoRegistration registration, Handle handle) {
        WRITER.set(registration, handle);
    }
}
