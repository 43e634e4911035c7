package io.jasyncio.task;

import io.jasyncio.loop.Handle;

/**
 * A coroutine that carries the name reports give it ("coro=" in a task's description, a slow
 * step's report): an adapter names the body it wraps, not itself. See {@link Coroutine#named}.
 */
final class NamedCoroutine<T> implements Coroutine<T>, Handle.Describable {
    private final String name;
    private final Coroutine<T> body;

    NamedCoroutine(String name, Coroutine<T> body) {
        this.name = name;
        this.body = body;
    }

    @Override
    public T run() throws Exception {
        return body.run();
    }

    @Override
    public String describe() {
        return name;
    }
}
