package io.jasyncio.http.server;

import io.jasyncio.http.HttpResponse;
import io.jasyncio.loop.CancelledError;
import io.jasyncio.loop.EventLoop;
import io.jasyncio.task.Coroutine;
import io.jasyncio.task.Task;
import io.jasyncio.task.Tasks;

import java.util.HashMap;
import java.util.Map;

/**
 * Runs a connection's handlers, one exchange at a time, each as a task of its own started eagerly
 * (a handler that does not suspend is done when {@link #dispatch} returns). The task's body is
 * this object, one per connection, not a lambda per request. A handler's failure is reported to
 * the loop's exception handler and answered 500, or aborts a response that began. The task of
 * the exchange being answered is kept while it runs: cancelled when the client goes, held by the
 * server when the connection is taken over.
 */
final class HandlerTask implements Coroutine<Void> {
    private final RequestCycle connection;
    private final ServerConnections server;
    private final ConnectionEnd end;
    /** The exchange whose task is being created ({@link #run} takes it). */
    private HttpExchange dispatching;
    /** The task of the exchange being answered, while it runs past its first step; else null. */
    private Task<Void> running;
    /** Whether the exchange dispatched last is still being answered (not ended in its first step). */
    private boolean answering;

    HandlerTask(RequestCycle connection, ServerConnections server, ConnectionEnd end) {
        this.connection = connection;
        this.end = end;
        this.server = server;
    }

    /**
     * In debug mode, the task is named after its request ({@code GET /books/7}), so a report of a
     * held loop names the route that held it; otherwise asyncio's {@code Task-N}.
     */
    private String debugName(HttpExchange ex) {
        if (!server.loop().getDebug()) {
            return null;
        }
        String name = ex.request().method() + " " + ex.request().target();
        return name.length() <= MOST_NAME_CHARS ? name : name.substring(0, MOST_NAME_CHARS) + "...";
    }

    /** A debug name's length at most (a request target may be long). */
    private static final int MOST_NAME_CHARS = 120;

    void dispatch(HttpExchange ex) {
        dispatching = ex;
        answering = true;
        Task<Void> task = Tasks.createEager(server.loop(), this, debugName(ex), null);
        if (task.isDone()) {
            return;
        }
        if (end.isHandedOver()) {
            server.holdUntilDone(task); // taken over in its first, eager, step
        } else if (answering) {
            running = task;
        }
    }

    /** The exchange being answered ended for the connection: its handler's task, if it runs on, is its own. */
    void exchangeEnded() {
        answering = false;
        running = null;
    }

    /** The connection is handed over: the server holds the running handler's task until it ends (the loop holds tasks weakly). */
    void holdUntilDone() {
        if (running != null) {
            server.holdUntilDone(running);
        }
    }

    /** The client went away: the running handler's task is cancelled (unless the server's options say not to). */
    void cancel(String why) {
        if (running != null && !running.isDone() && server.options().handlerCancellation()) {
            running.cancel(why);
        }
    }

    @Override
    public Void run() {
        HttpExchange ex = dispatching;
        dispatching = null;
        try {
            runHandler(ex, server.wholeHandler(), server.streamingHandler());
        } catch (CancelledError cancelled) {
            throw cancelled;
        } catch (Throwable t) {
            handlerFailed(ex, t);
        }
        return null;
    }

    /** Runs the handler and ends what it left open. */
    private static void runHandler(HttpExchange ex, HttpHandler whole, StreamingHandler streaming) throws Exception {
        if (whole != null) {
            HttpResponse answer = whole.handle(ex.wholeRequest());
            if (!ex.responseStarted()) {
                ex.respond(answer == null ? HttpResponse.text(500, "the handler returned no response") : answer);
            }
        } else {
            streaming.handle(ex);
            if (!ex.responseStarted()) {
                ex.respond(HttpResponse.text(500, "the handler sent no response"));
            } else {
                ex.end();
            }
        }
    }

    private void handlerFailed(HttpExchange ex, Throwable t) {
        if (end.isGone()) {
            return; // the client went away: what the handler saw is no fault of its own
        }
        if (ex.failedWith(t)) {
            connection.closeGracefully(); // the client broke off its request: nothing to report, nothing to answer
            return;
        }
        Map<String, Object> context = new HashMap<>();
        context.put("message", "HTTP handler failed on " + ex.request().method() + " " + ex.request().target());
        context.put("exception", t);
        EventLoop loop = server.loop();
        loop.callExceptionHandler(context);
        ex.handlerFailed();
    }
}
