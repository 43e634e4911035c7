package io.jasyncio.consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DocumentationTool;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The published javadoc: javadoc's own doclint, its "missing" group, over each published module,
 * must find no public or protected member of an exported package without a description (the
 * parent pom runs the rest of doclint on the javadoc jars, failing the build on any warning; its
 * "missing" group also wants an {@code @param} for every parameter, which this library does not
 * ask for). And the javadoc jars document the exported packages only. (jasyncio-http joins the
 * list when it is published.)
 */
@Timeout(300)
class PublishedJavadocTest {
    private static final List<String> PUBLISHED = List.of("jasyncio-core", "jasyncio-native", "jasyncio-epoll",
            "jasyncio-uring", "jasyncio-junit", "jasyncio-backend-tck");
    /** An unqualified export in a module-info.java (a qualified one, "exports p to m", is not published). */
    private static final Pattern EXPORT = Pattern.compile("(?m)^\\s*exports\\s+([\\w.]+)\\s*;");

    @Test
    void everyPublicMemberOfAnExportedPackageHasADescription() throws IOException {
        List<String> missing = new ArrayList<>();
        for (String module : PUBLISHED) {
            Path src = Path.of("..", module, "src", "main", "java").toAbsolutePath().normalize();
            List<Path> exported = exportedPackages(src).stream().map(p -> src.resolve(p.replace('.', '/'))).toList();
            if (exported.isEmpty()) {
                continue; // a loop module: its API is the provider it registers
            }
            missing.addAll(undescribed(src, exported));
        }
        assertEquals(List.of(), missing, missing.size() + " public or protected members of exported packages have "
                + "no description (javadoc -Xdoclint:missing says \"no comment\"):\n" + String.join("\n", missing));
    }

    @Test
    void theJavadocJarsPublishTheExportedPackagesOnly() throws IOException {
        Path jar = Path.of("..", "jasyncio-core", "target", "jasyncio-core-0.1.0-SNAPSHOT-javadoc.jar");
        assertTrue(Files.exists(jar), "the core's javadoc jar is built before this module: " + jar);
        List<String> packages = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            zip.stream().map(e -> e.getName()).filter(n -> n.endsWith("/package-summary.html")).forEach(packages::add);
        }
        assertFalse(packages.isEmpty(), "the jar documents packages");
        List<String> published = exportedPackages(Path.of("..", "jasyncio-core", "src", "main", "java"));
        for (String page : packages) {
            String pkg = page.substring(page.indexOf('/') + 1, page.lastIndexOf('/')).replace('/', '.');
            assertTrue(published.contains(pkg), "the javadoc publishes " + pkg + ", which the module does not export: " + packages);
        }
    }

    private static List<String> exportedPackages(Path src) throws IOException {
        List<String> packages = new ArrayList<>();
        Matcher m = EXPORT.matcher(Files.readString(src.resolve("module-info.java")));
        while (m.find()) {
            packages.add(m.group(1));
        }
        return packages;
    }

    /** Runs javadoc with doclint's missing checks over the module's sources; the "no comment" findings in exported packages. */
    private static List<String> undescribed(Path src, List<Path> exported) throws IOException {
        List<File> sources;
        try (Stream<Path> files = Files.walk(src)) {
            sources = files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"))
                    .map(Path::toFile).toList();
        }
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path out = Files.createTempDirectory("published-javadoc");
        try (StandardJavaFileManager files = javadoc.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-d", out.toString(), "-quiet", "-Xdoclint:missing", "-Xmaxwarns", "100000",
                    "-Xmaxerrs", "100000", "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED",
                    "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-classpath", System.getProperty("java.class.path"));
            javadoc.getTask(null, files, diagnostics, null, options, files.getJavaFileObjectsFromFiles(sources)).call();
        }
        List<String> found = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            String message = d.getMessage(Locale.ROOT);
            if (d.getSource() == null || !(message.contains("no comment") || message.contains("use of default constructor"))) {
                continue;
            }
            Path file = Path.of(d.getSource().toUri());
            if (exported.contains(file.getParent())) {
                found.add(src.relativize(file) + ":" + d.getLineNumber() + ": " + message.lines().findFirst().orElse(""));
            }
        }
        return found;
    }
}
