package io.jasyncio.task;

import io.jasyncio.loop.Handle;

/**
 * A coroutine that carries the name reports give it ("coro=" in a task's description, a slow
 * step's report): an adapter names the body it wraps, not itself.
 */
abstract class NamedCoroutine<T> implements Coroutine<T>, Handle.Describable {
    private final String name;

    NamedCoroutine(String name) {
        this.name = name;
    }

    @Override
    public String describe() {
        return name;
    }
}
