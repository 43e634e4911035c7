import io.jasyncio.Asyncio;
import io.jasyncio.task.Task;

import java.util.List;

/**
 * asyncio's introspection example, in Java: two album tasks, each a TaskGroup awaiting its track
 * tasks, all suspended for an hour. Run it, then look at it from another terminal:
 *
 * <pre>
 * java -cp jasyncio-core.jar Album.java        (prints its PID)
 * ./jasyncio pstree PID
 * ./jasyncio ps PID
 * </pre>
 *
 * With {@code --cycle} it starts two tasks that await each other instead, which {@code pstree}
 * reports as a cycle.
 */
public final class Album {
    static void play(String track) {
        Asyncio.sleep(3600);
        System.out.println("Finished: " + track);
    }

    static void album(String name, List<String> tracks) {
        Asyncio.taskGroup(tg -> {
            for (String track : tracks) {
                tg.createTask(() -> play(track), track);
            }
        });
    }

    static void main() {
        System.out.println("PID: " + ProcessHandle.current().pid());
        Asyncio.taskGroup(tg -> {
            tg.createTask(() -> album("Sundowning", List.of("TNDNBTG", "Levitate")), "Sundowning");
            tg.createTask(() -> album("TMBTE", List.of("DYWTYLM", "Aqua Regia")), "TMBTE");
        });
    }

    /** Two tasks that await each other: an await graph with a cycle. */
    static void cycle() {
        System.out.println("PID: " + ProcessHandle.current().pid());
        Task<?>[] tasks = new Task<?>[2];
        tasks[0] = Asyncio.createTask(() -> {
            Asyncio.sleep(0);
            Asyncio.await(tasks[1]);
        });
        tasks[1] = Asyncio.createTask(() -> {
            Asyncio.sleep(0);
            Asyncio.await(tasks[0]);
        });
        Asyncio.await(tasks[0]);
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("--cycle")) {
            Asyncio.run(() -> cycle());
        } else {
            Asyncio.run(() -> main());
        }
    }
}
