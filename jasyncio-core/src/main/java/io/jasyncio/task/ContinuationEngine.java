package io.jasyncio.task;

import jdk.internal.vm.Continuation;
import jdk.internal.vm.ContinuationScope;

/**
 * The engine on JDK continuations ({@code jdk.internal.vm.Continuation}, the machinery under
 * virtual threads): a body runs on the loop's own thread, mounted by each step and unmounted by
 * {@code Continuation.yield}. The fastest engine; it needs
 * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}. This class and
 * {@link TaskContinuation} are the only ones that reference the continuation API, and they are
 * loaded only when this engine is chosen, so the rest runs on a JVM without the export.
 */
final class ContinuationEngine implements TaskEngine {
    static final ContinuationScope SCOPE = new ContinuationScope("jasyncio");

    @Override
    public String name() {
        return "continuation";
    }

    @Override
    public TaskBody newBody(Task<?> task, Runnable code) {
        return new TaskContinuation(task, code);
    }

    @Override
    public Task<?> current() {
        Continuation c = Continuation.getCurrentContinuation(SCOPE);
        return c instanceof TaskContinuation tc ? tc.task : null;
    }
}
