package io.jasyncio.loop;


/**
 * The POSIX signals a loop can handle ({@link EventLoop#addSignalHandler}). SIGQUIT and SIGKILL
 * are not here: the JVM keeps the first (thread dumps) and no one can catch the second.
 */
public enum Signal {
    SIGINT("INT"),
    SIGTERM("TERM"),
    SIGHUP("HUP"),
    SIGUSR1("USR1"),
    SIGUSR2("USR2");

    private final String jvmName;

    Signal(String jvmName) {
        this.jvmName = jvmName;
    }

    /** The name the JVM knows it by ({@code "TERM"}). */
    public String jvmName() {
        return jvmName;
    }

    /** Sends this signal to this very process (as {@code kill -TERM <own pid>}). */
    public void raise() {
        SignalHandlers.raise(this);
    }
}
