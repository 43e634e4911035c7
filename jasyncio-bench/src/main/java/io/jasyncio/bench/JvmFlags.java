package io.jasyncio.bench;

/**
 * The JVM flags every forked benchmark JVM needs: the parent pom's {@code jasyncio.jvmFlags}
 * (continuations live in {@code jdk.internal.vm}; the epoll loop reads channel fds from
 * {@code sun.nio.ch}). Annotations need compile-time constants, so
 * they are spelled out here; {@code JvmFlagsTest} fails the build when they drift from the pom.
 */
public final class JvmFlags {
    private JvmFlags() {
    }

    public static final String ADD_EXPORTS = "--add-exports";
    public static final String VM_INTERNALS = "java.base/jdk.internal.vm=ALL-UNNAMED";
    public static final String NIO_INTERNALS = "java.base/sun.nio.ch=ALL-UNNAMED";
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** Forces the portable task engine (what a JVM without the jdk.internal.vm export gets). */
    public static final String THREADS_ENGINE = "-Djasyncio.engine=threads";

    // A fixed, pre-touched heap, in every benchmark's @Fork(jvmArgs): the default heap starts small
    // and grows, so an allocating benchmark would measure the heap's growth (page faults, resizing
    // collections) as much as the code. JMH's -jvmArgs option replaces these (bench/micro.sh
    // --default-heap does, to measure what default sizing costs); the flags above are appended
    // either way.
    public static final String FIXED_HEAP_MIN = "-Xms2g";
    public static final String FIXED_HEAP_MAX = "-Xmx2g";
    public static final String PRE_TOUCH = "-XX:+AlwaysPreTouch";
}
