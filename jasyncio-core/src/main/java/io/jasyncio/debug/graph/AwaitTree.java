package io.jasyncio.debug.graph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code pstree}: the await graph of {@link TaskRow}s as a tree, roots first, as asyncio 3.14's
 * {@code python -m asyncio pstree} draws it. Each task hangs under the frames of the task
 * awaiting it; a task awaiting nothing the graph knows of ends in its own frames:
 * <pre>
 * └── (T) Task-1
 *     └──  Album.main Album.java:35
 *         └──  TaskGroup.run TaskGroup.java:80
 *             ├── (T) Sundowning
 * </pre>
 * Tasks awaiting each other cannot be drawn as a tree: {@link #render} then throws
 * {@link CyclesFound}, whose {@link CyclesFound#report()} is asyncio's error and cycle list.
 */
public final class AwaitTree {
    private AwaitTree() {
    }

    /** The tasks awaiting each other, each cycle as names from a task back to itself. */
    public static final class CyclesFound extends Exception {
        /** The cycles, as {@link #cycles()} gives them. */
        private final List<List<String>> cycles;

        CyclesFound(List<List<String>> cycles) {
            super("await-graph contains cycles");
            this.cycles = cycles;
        }

        /** Each cycle: the names of the tasks from one back to itself. */
        public List<List<String>> cycles() {
            return cycles;
        }

        /** asyncio's report: {@code ERROR: await-graph contains cycles - cannot print a tree!}, a blank line, then {@code cycle: a → b → a} each. */
        public String report() {
            StringBuilder out = new StringBuilder("ERROR: await-graph contains cycles - cannot print a tree!\n\n");
            for (List<String> c : cycles) {
                out.append("cycle: ").append(String.join(" → ", c)).append('\n');
            }
            return out.toString();
        }
    }

    /** The trees, one string per root (lines joined by '\n'). */
    public static List<String> render(List<TaskRow> rows) throws CyclesFound {
        Map<String, TaskRow> byKey = new LinkedHashMap<>();
        for (TaskRow r : rows) {
            byKey.put(key(r.loop(), r.id()), r);
        }
        List<List<String>> cycles = findCycles(rows, byKey);
        if (!cycles.isEmpty()) {
            throw new CyclesFound(cycles);
        }
        Node forest = new Node("");
        Map<String, Node> taskNodes = new LinkedHashMap<>();
        for (TaskRow r : rows) {
            taskNodes.put(key(r.loop(), r.id()), new Node("(T) " + r.name()));
        }
        Set<Node> children = new LinkedHashSet<>();
        Set<String> awaiting = new LinkedHashSet<>();
        for (TaskRow child : rows) {
            for (String parentId : child.awaitedBy()) {
                TaskRow parent = byKey.get(key(child.loop(), parentId));
                if (parent == null) {
                    continue; // finished between the two phases of the snapshot
                }
                awaiting.add(key(parent.loop(), parent.id()));
                Node at = framesUnder(taskNodes.get(key(parent.loop(), parent.id())), parent.stack());
                Node childNode = taskNodes.get(key(child.loop(), child.id()));
                if (!at.kids.contains(childNode)) {
                    at.kids.add(childNode);
                }
                children.add(childNode);
            }
        }
        for (TaskRow r : rows) {
            String k = key(r.loop(), r.id());
            if (!awaiting.contains(k)) {
                framesUnder(taskNodes.get(k), r.stack()); // a leaf ends in its own frames
            }
        }
        List<String> trees = new ArrayList<>();
        for (Node task : taskNodes.values()) {
            if (!children.contains(task)) {
                List<String> lines = new ArrayList<>();
                draw(task, "", true, lines);
                trees.add(String.join("\n", lines));
            }
        }
        return trees;
    }

    /** The node of the innermost of {@code stack}'s frames (most recent first) under {@code task}, made as needed. */
    private static Node framesUnder(Node task, List<String> stack) {
        Node at = task;
        for (int i = stack.size() - 1; i >= 0; i--) {
            at = at.frame(stack.get(i));
        }
        return at;
    }

    private static void draw(Node node, String prefix, boolean last, List<String> lines) {
        lines.add(prefix + (last ? "└── " : "├── ") + node.label);
        String inner = prefix + (last ? "    " : "│   ");
        for (int i = 0; i < node.kids.size(); i++) {
            draw(node.kids.get(i), inner, i == node.kids.size() - 1, lines);
        }
    }

    /** Depth-first search of the task graph (awaiter to awaited) for back edges, as asyncio's tools do. */
    private static List<List<String>> findCycles(List<TaskRow> rows, Map<String, TaskRow> byKey) {
        Map<String, List<String>> awaits = new LinkedHashMap<>();
        for (TaskRow child : rows) {
            for (String parentId : child.awaitedBy()) {
                String p = key(child.loop(), parentId);
                if (byKey.containsKey(p)) {
                    List<String> kids = awaits.computeIfAbsent(p, k -> new ArrayList<>());
                    String c = key(child.loop(), child.id());
                    if (!kids.contains(c)) {
                        kids.add(c);
                    }
                }
            }
        }
        Map<String, Integer> colour = new LinkedHashMap<>(); // absent: unseen, 1: on the path, 2: done
        List<String> path = new ArrayList<>();
        List<List<String>> cycles = new ArrayList<>();
        for (String v : new ArrayList<>(awaits.keySet())) {
            if (!colour.containsKey(v)) {
                visit(v, awaits, colour, path, cycles, byKey);
            }
        }
        return cycles;
    }

    private static void visit(String v, Map<String, List<String>> awaits, Map<String, Integer> colour,
                              List<String> path, List<List<String>> cycles, Map<String, TaskRow> byKey) {
        colour.put(v, 1);
        path.add(v);
        for (String w : awaits.getOrDefault(v, List.of())) {
            Integer c = colour.get(w);
            if (c == null) {
                visit(w, awaits, colour, path, cycles, byKey);
            } else if (c == 1) {
                List<String> names = new ArrayList<>();
                for (String k : path.subList(path.indexOf(w), path.size())) {
                    names.add(byKey.get(k).name());
                }
                names.add(byKey.get(w).name());
                cycles.add(names);
            }
        }
        colour.put(v, 2);
        path.removeLast();
    }

    private static String key(int loop, String id) {
        return loop + "/" + id;
    }

    /** A task ("(T) name") or a frame (" label") in the tree; a frame's children are looked up by label. */
    private static final class Node {
        final String label;
        final List<Node> kids = new ArrayList<>();
        private Map<String, Node> frames;

        Node(String label) {
            this.label = label;
        }

        Node frame(String frameLabel) {
            if (frames == null) {
                frames = new LinkedHashMap<>();
            }
            return frames.computeIfAbsent(frameLabel, l -> {
                Node n = new Node(" " + l);
                kids.add(n);
                return n;
            });
        }
    }
}
