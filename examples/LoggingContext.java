import io.jasyncio.context.ContextVar;

import java.util.List;

import static io.jasyncio.Asyncio.*;

/**
 * Per-task state that means the same on both task engines: a logging context (the id of the
 * request being served) carried by a {@link ContextVar}, as Python code carries it in a
 * {@code contextvars.ContextVar}.
 *
 * <p>Each request is a task; it sets the id once, and every line it logs, before and after its
 * awaits, carries that id while the other requests run in between. A task it creates copies its
 * context, so the child logs the same id; the main task never sees any.
 *
 * <p>A {@code ThreadLocal} (a logging MDC, say) would not do this: on the continuation engine all
 * tasks share the loop's thread, so a value set by one request is what the next one finds; on the
 * portable engine each task has a thread of its own, so a child task would not inherit it
 * (README, "Task engines: threads and thread-locals").
 *
 * <p>Run it from the repository root after {@code ./jasyncio build}, on either engine:
 * <pre>
 * java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED -cp jasyncio-core/target/classes examples/LoggingContext.java
 * java -Djasyncio.engine=threads -cp jasyncio-core/target/classes examples/LoggingContext.java
 * </pre>
 */
public class LoggingContext {
    static final ContextVar<String> REQUEST_ID = ContextVar.withDefault("request_id", "-");

    /** A log line prefixed with the current request's id (what an MDC-aware log pattern would print). */
    static void log(String message) {
        System.out.println("[" + REQUEST_ID.get() + "] " + message);
    }

    static String serve(String id, double seconds) {
        REQUEST_ID.set(id); // lands in this task's own context only
        log(id + " started");
        sleep(seconds);     // the other requests run meanwhile
        String stock = await(createTask(() -> {
            log(id + " child task looks up the stock"); // a child task copies its parent's context
            sleep(seconds);
            return "in stock";
        }));
        log(id + " answered: " + stock);
        return id;
    }

    public static void main(String[] args) {
        run(() -> {
            log("serving 3 requests");
            List<String> served = await(gather(
                    () -> serve("req-1", 0.03),
                    () -> serve("req-2", 0.01),
                    () -> serve("req-3", 0.02)));
            log("served " + served);
        });
    }
}
