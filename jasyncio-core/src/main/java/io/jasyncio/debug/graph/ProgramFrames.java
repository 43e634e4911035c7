package io.jasyncio.debug.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * A suspended task's frames as its author reads them: the program's own frames, and of each
 * stretch of the library's frames only the one the program called ({@code Asyncio.sleep},
 * {@code TaskGroup.run}), as asyncio's call graphs show {@code sleep} and
 * {@code TaskGroup.__aexit__} but not the event loop's machinery underneath.
 *
 * <p>The rules, applied from the most recent frame outwards:
 * <ul>
 *   <li>A stretch of frames of the library ({@code io.jasyncio} and its modules) and of the JDK
 *       ({@code java.}, {@code jdk.}, {@code sun.}) is shown as its outermost library frame; JDK
 *       frames the program called outside the library (an {@code ArrayList.forEach}) stay. The
 *       stretch the task's body is called from (the engine, a body adapter) is left out.</li>
 *   <li>A lambda is shown under the method it is written in ({@code lambda$album$1} is
 *       {@code album}), and left out when all it does is call on into the program's own code: a
 *       task body {@code () -> play(track)} shows as {@code play}, as asyncio's task of
 *       {@code play(track)} does.</li>
 * </ul>
 */
public final class ProgramFrames {
    private static final String[] LIBRARY = {
            "io.jasyncio.Asyncio", "io.jasyncio.loop.", "io.jasyncio.task.", "io.jasyncio.util.",
            "io.jasyncio.sync.", "io.jasyncio.net.", "io.jasyncio.exec.", "io.jasyncio.interop.",
            "io.jasyncio.context.", "io.jasyncio.debug.", "io.jasyncio.group.", "io.jasyncio.subprocess.",
            "io.jasyncio.nativeio.", "io.jasyncio.epoll.", "io.jasyncio.uring.", "io.jasyncio.http.",
            "io.jasyncio.junit."};
    private static final String[] JDK = {"java.", "javax.", "jdk.", "sun.", "com.sun."};

    private ProgramFrames() {
    }

    /** {@code frames} (most recent first) as the program's frames, most recent first. */
    public static List<StackTraceElement> of(StackTraceElement[] frames) {
        List<StackTraceElement> shown = new ArrayList<>();
        int i = 0;
        boolean sawProgram = false;
        while (i < frames.length) {
            if (isProgram(frames[i])) {
                sawProgram = true;
                StackTraceElement f = frames[i];
                boolean passThrough = isLambda(f) && !shown.isEmpty() && isProgram(shown.getLast());
                if (!passThrough) {
                    shown.add(f);
                }
                i++;
                continue;
            }
            int end = i; // the stretch of library and JDK frames [i, end)
            int outermostLibrary = -1;
            while (end < frames.length && !isProgram(frames[end])) {
                if (isLibrary(frames[end])) {
                    outermostLibrary = end;
                }
                end++;
            }
            if (end == frames.length && sawProgram) {
                break; // the machinery the task's body is called from: nobody in the program called it
            }
            if (outermostLibrary >= 0) {
                shown.add(frames[outermostLibrary]);
                i = outermostLibrary + 1; // JDK frames outside the library call stay
            } else {
                for (; i < end; i++) {
                    shown.add(frames[i]);
                }
            }
        }
        return shown;
    }

    /** {@code Album.play Album.java:14}: asyncio's pstree label ({@code funcname file:line}). */
    public static String label(StackTraceElement f) {
        String file = f.getFileName() != null ? f.getFileName() : "Unknown Source";
        return function(f) + " " + file + ":" + f.getLineNumber();
    }

    /** {@code Album.play}: the class's simple name (nested classes dotted) and the method, a lambda by the method it is in. */
    public static String function(StackTraceElement f) {
        String className = f.getClassName();
        String simple = className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
        return simple + "." + methodName(f);
    }

    /** The method's name; a lambda's is the method it is written in ({@code lambda$album$1}: {@code album}). */
    static String methodName(StackTraceElement f) {
        String m = f.getMethodName();
        if (m.startsWith("lambda$")) {
            int end = m.indexOf('$', 7);
            return end > 7 ? m.substring(7, end) : m;
        }
        return m;
    }

    static boolean isLibrary(StackTraceElement f) {
        return startsWithAny(f.getClassName(), LIBRARY);
    }

    private static boolean isProgram(StackTraceElement f) {
        return !isLibrary(f) && !startsWithAny(f.getClassName(), JDK);
    }

    private static boolean isLambda(StackTraceElement f) {
        return f.getMethodName().startsWith("lambda$");
    }

    private static boolean startsWithAny(String name, String[] prefixes) {
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
