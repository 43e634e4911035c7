package io.jasyncio.loop;

/** Whether new loops start in debug mode: {@code -Djasyncio.debug=true} or {@code JASYNCIO_DEBUG=1}. */
final class DebugDefaults {
    private DebugDefaults() {
    }

    static boolean enabled() {
        String property = System.getProperty("jasyncio.debug");
        if (property != null) {
            return Boolean.parseBoolean(property) || property.equals("1");
        }
        String env = System.getenv("JASYNCIO_DEBUG");
        return env != null && !env.isEmpty() && !env.equals("0");
    }
}
