package io.jasyncio.debug.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ps}: one row per pending task and awaiter (one row when nothing awaits it), the columns
 * of asyncio 3.14's {@code python -m asyncio ps} with the task's state beside its name: loop
 * thread id, task id, name, state, where it is suspended (functions, most recent first), the
 * awaiting task's frames, name and id ({@code 0x0} when none).
 */
public final class TaskTable {
    private static final String FORMAT = "%-10s %-20s %-20s %-8s %-50s %-50s %-15s %-15s";

    private TaskTable() {
    }

    /** The table's lines: the header, a rule, then one line per task and awaiter of {@code rows}. */
    public static List<String> render(List<TaskRow> rows) {
        Map<String, TaskRow> byKey = new HashMap<>();
        for (TaskRow r : rows) {
            byKey.put(r.loop() + "/" + r.id(), r);
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, FORMAT, "tid", "task id", "task name", "state", "coroutine stack",
                "awaiter chain", "awaiter name", "awaiter id").stripTrailing());
        lines.add("-".repeat(190));
        for (TaskRow r : rows) {
            String stack = functions(r.stack());
            if (r.awaitedBy().isEmpty()) {
                lines.add(row(r, stack, "", "", "0x0"));
            }
            for (String awaiterId : r.awaitedBy()) {
                TaskRow awaiter = byKey.get(r.loop() + "/" + awaiterId);
                lines.add(row(r, stack, awaiter != null ? functions(awaiter.stack()) : "",
                        awaiter != null ? awaiter.name() : "Unknown", awaiterId));
            }
        }
        return lines;
    }

    private static String row(TaskRow r, String stack, String awaiterChain, String awaiterName, String awaiterId) {
        return String.format(Locale.ROOT, FORMAT, r.thread(), r.id(), r.name(), r.state(), stack, awaiterChain,
                awaiterName, awaiterId).stripTrailing();
    }

    /** {@code Asyncio.sleep -> Album.play}: each frame's function, most recent first. */
    private static String functions(List<String> labels) {
        List<String> names = new ArrayList<>();
        for (String label : labels) {
            int space = label.indexOf(' ');
            names.add(space > 0 ? label.substring(0, space) : label);
        }
        return String.join(" -> ", names);
    }
}
