package io.jasyncio.loop;

import java.util.Map;

/**
 * Receives errors that have no caller to go to: a failing callback, an exception no one
 * retrieved, a failing accept. The context holds {@code "message"} always and, where they apply,
 * {@code "exception"}, {@code "handle"}, {@code "future"}, {@code "task"}, {@code "transport"}.
 */
@FunctionalInterface
public interface ExceptionHandler {
    /** Handles one error {@code loop} reports; {@code context} holds its keys (see the class comment). */
    void handle(EventLoop loop, Map<String, Object> context);
}
