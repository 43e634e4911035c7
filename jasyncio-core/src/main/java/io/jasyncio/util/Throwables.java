package io.jasyncio.util;

/** Rethrows any throwable as itself, checked or not, so callers see the original object. */
public final class Throwables {
    private Throwables() {
    }

    /**
     * Throws {@code t} unchanged. Declared to return an exception so call sites can write
     * {@code throw sneakyThrow(t)} and keep the compiler's flow analysis.
     */
    public static RuntimeException sneakyThrow(Throwable t) {
        throw Throwables.<RuntimeException>sneaky(t);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
