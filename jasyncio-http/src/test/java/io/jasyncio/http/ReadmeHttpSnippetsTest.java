package io.jasyncio.http;

import org.junit.jupiter.api.Test;

import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@code ```java} block of the README's HTTP section compiles as printed, against the
 * modules' classes: its imports first, the rest as the body of a method that may throw and has an
 * {@code int port} in scope. A block must show its imports (issue 37: the JDK's
 * {@code java.net.http} has classes of the same names).
 */
class ReadmeHttpSnippetsTest {
    private static final Path README = Path.of(System.getProperty("user.dir")).getParent().resolve("README.md");

    /** The {@code ```java} blocks between {@code ## HTTP} and the next {@code ## } heading. */
    static List<String> httpSnippets(String readme) {
        int start = readme.indexOf("\n## HTTP\n");
        assertTrue(start >= 0, "the README has no ## HTTP section");
        int end = readme.indexOf("\n## ", start + 1);
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        List<String> blocks = new ArrayList<>();
        int from = 0;
        while ((from = section.indexOf("```java\n", from)) >= 0) {
            int close = section.indexOf("\n```", from);
            blocks.add(section.substring(from + "```java\n".length(), close + 1));
            from = close + 4;
        }
        return blocks;
    }

    /** {@code snippet} as a compilation unit: its imports, then its other lines in a method. */
    static String asClass(String name, String snippet) {
        StringBuilder imports = new StringBuilder();
        StringBuilder body = new StringBuilder();
        for (String line : snippet.split("\n", -1)) {
            (line.startsWith("import ") ? imports : body).append(line).append('\n');
        }
        return imports + "class " + name + " {\n    static void snippet(int port) throws Exception {\n" + body + "    }\n}\n";
    }

    @Test
    void everySnippetShowsItsImportsAndCompiles() throws IOException {
        List<String> snippets = httpSnippets(Files.readString(README));
        assertTrue(snippets.size() >= 3, "the server, the router and the client: " + snippets.size());
        List<JavaFileObject> units = new ArrayList<>();
        for (int i = 0; i < snippets.size(); i++) {
            String snippet = snippets.get(i);
            assertTrue(snippet.startsWith("import "), "HTTP snippet " + (i + 1) + " starts with its imports:\n" + snippet);
            String name = "ReadmeHttpSnippet" + (i + 1);
            String source = asClass(name, snippet);
            units.add(new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return source;
                }
            });
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path out = Files.createTempDirectory("readme-http");
        try {
            boolean ok = javac.getTask(null, null, diagnostics, List.of("-d", out.toString(), "-proc:none",
                    "-cp", System.getProperty("java.class.path")), null, units).call();
            assertTrue(ok, diagnostics.getDiagnostics().toString());
            assertEquals(List.of(), diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR).map(Object::toString).toList());
        } finally {
            try (var files = Files.walk(out)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
