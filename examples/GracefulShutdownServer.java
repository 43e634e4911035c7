import io.jasyncio.loop.EventLoop;
import io.jasyncio.loop.Signal;
import io.jasyncio.net.Server;
import io.jasyncio.net.StreamReader;
import io.jasyncio.net.StreamWriter;
import io.jasyncio.sync.Event;
import io.jasyncio.task.Task;
import io.jasyncio.task.TimeoutException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.jasyncio.Asyncio.*;

/**
 * A server that stops gracefully on SIGTERM, as a container expects: stop accepting, let the
 * requests in flight finish within a deadline, close the rest, exit 0.
 *
 * <p>The protocol is one line per request, {@code work MS}: the server works (sleeps) MS
 * milliseconds, then answers {@code done MS}. A connection waiting for its next request is idle
 * and is closed at once on SIGTERM; one in the middle of a request finishes it, gets its answer,
 * and is closed; whatever is still running when the deadline passes is cut off.
 *
 * <p>Run it from the repository root after {@code ./jasyncio build}:
 * <pre>
 * java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED -cp jasyncio-core/target/classes \
 *     examples/GracefulShutdownServer.java [PORT (0: any)] [DEADLINE_SECONDS]
 * </pre>
 * then {@code printf 'work 2000\n' | nc 127.0.0.1 PORT} and {@code kill -TERM PID}.
 */
public class GracefulShutdownServer {
    private final Set<Task<?>> handlers = new HashSet<>();
    private final Set<Task<?>> idle = new HashSet<>();
    private boolean stopping;

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8000;
        double deadline = args.length > 1 ? Double.parseDouble(args[1]) : 10;
        run(() -> new GracefulShutdownServer().serveUntilSigterm(port, deadline));
        System.out.println("bye");
    }

    void serveUntilSigterm(int port, double deadline) throws IOException {
        EventLoop loop = getRunningLoop();
        Event sigterm = new Event();
        loop.addSignalHandler(Signal.SIGTERM, sigterm::set);   // the callback runs on the loop thread
        Server server = startServer(this::handle, "127.0.0.1", port);
        int bound = ((InetSocketAddress) server.addresses().getFirst()).getPort();
        say("listening on 127.0.0.1:" + bound);

        sigterm.await();
        stopping = true;
        server.close();                                        // 1. stop accepting
        say("SIGTERM: stopped accepting; " + (handlers.size() - idle.size()) + " request(s) in flight, "
                + idle.size() + " idle connection(s) closed, deadline " + deadline + " s");
        for (Task<?> t : List.copyOf(idle)) {
            t.cancel();
        }
        try {
            timeout(deadline, () -> server.waitClosed());     // 2. let in-flight requests finish
            say("every request finished");
        } catch (TimeoutException e) {
            say("deadline passed: cutting off " + handlers.size() + " connection(s)");
            for (Task<?> t : List.copyOf(handlers)) {         // 3. close the rest
                t.cancel();
            }
            server.abortClients();
            server.waitClosed();
        }
        loop.removeSignalHandler(Signal.SIGTERM);
    }

    private void handle(StreamReader reader, StreamWriter writer) throws Exception {
        Task<?> me = currentTask();
        handlers.add(me);
        try {
            while (!stopping) {
                idle.add(me);
                byte[] line;
                try {
                    line = reader.readline();
                } finally {
                    idle.remove(me);
                }
                if (line.length == 0) {
                    break;                                     // the client closed
                }
                String millis = new String(line, StandardCharsets.US_ASCII).trim().substring("work ".length());
                say("request started: work " + millis);
                sleep(Integer.parseInt(millis) / 1000.0);
                writer.write(("done " + millis + "\n").getBytes(StandardCharsets.US_ASCII));
                writer.drain();
            }
        } finally {
            handlers.remove(me);
            writer.close();
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
