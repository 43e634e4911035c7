package io.jasyncio.lab.experiments;

import io.jasyncio.loop.Handle;

/** A callback with a name the loop's observer (and debug mode) can show. */
record NamedCallback(String name, Runnable body) implements Runnable, Handle.Describable {
    @Override
    public void run() {
        body.run();
    }

    @Override
    public String describe() {
        return name;
    }

    /** The name of what {@code handle} runs: ours when it is a named callback. */
    static String nameOf(Handle handle) {
        Runnable cb = handle.callback();
        return cb instanceof Handle.Describable d ? d.describe() : handle.toString();
    }
}
