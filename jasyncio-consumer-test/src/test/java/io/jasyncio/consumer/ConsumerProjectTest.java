package io.jasyncio.consumer;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The published artifacts as a user meets them. The README's install command
 * ({@code ./jasyncio install}), run in a copy of the sources as a clone holds them, installs them
 * (pom, jar, sources, javadoc, the BOM, the parent) into {@code target/consumer-repository}
 * ({@code -Dmaven.repo.local}); this test writes a
 * project that adds only what the README says (its Maven snippet, its first program, its JVM
 * flag), builds it with Maven against that repository (third-party artifacts read from this
 * machine's local repository as a file:// mirror: nothing is downloaded, nothing of ours lands
 * in ~/.m2), and runs it on the class path; then the same program as a module of its own, on the
 * module path, where the jars are the modules their module-info.java declares: the exported
 * packages compile, an internal one does not, and the epoll loop and signals work there with the
 * flags the library's own messages name.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ConsumerProjectTest {
    private static final List<String> PUBLISHED = List.of("jasyncio-core", "jasyncio-native", "jasyncio-epoll", "jasyncio-uring",
            "jasyncio-junit", "jasyncio-http", "jasyncio-backend-tck");
    private static final List<String> NOT_PUBLISHED = List.of("jasyncio-lab", "jasyncio-bench", "jasyncio-conformance",
            "jasyncio-architecture-test", "jasyncio-backend-test", "jasyncio-backend-poll", "jasyncio-consumer-test");

    private static Path root;
    private static Path repository;
    private static Path work;
    private static String version;
    private static String readme;
    private static Result install;
    private static Result offlineInstall;
    /** The versions of maven-install-plugin the install fetched, listed before any other build used the repository. */
    private static List<String> installPluginVersions;

    /**
     * Runs the README's install command, as written, with the throwaway repository as its local
     * repository (and this machine's repository as its only remote one, so nothing is downloaded).
     */
    @BeforeAll
    @Timeout(value = 720, unit = TimeUnit.SECONDS)
    static void installWithTheReadmesCommand() throws Exception {
        root = Path.of(property("jasyncio.root")).toRealPath();
        repository = Path.of(property("consumer.repository"));
        work = Path.of(property("consumer.work"));
        Files.createDirectories(work);
        version = property("jasyncio.version");
        readme = Files.readString(root.resolve("README.md"));

        String command = block("sh", "## Adding it to a build").strip();
        assertEquals("./jasyncio install", command, "the README's install command");
        deleteRecursively(repository);
        Path settings = work.resolve("settings.xml");
        Files.writeString(settings, settings());
        // A copy, not the checkout itself: the install rebuilds every library module's jars, which
        // the other modules' tests read from their target directories while this one runs beside
        // them (./jasyncio test builds modules in parallel).
        Path clone = copyOfTheSources(root, work.resolve("clone"));
        List<String> argv = new ArrayList<>(List.of(command.split(" ")));
        argv.set(0, clone.resolve(argv.get(0)).toString());
        argv.addAll(List.of("-s", settings.toString(), "-Dmaven.repo.local=" + repository));
        install = runProcess(clone, 400, argv.toArray(String[]::new));
        argv.add("-o"); // again offline: every plugin it needs is now in the repository, at the pinned versions
        offlineInstall = runProcess(clone, 300, argv.toArray(String[]::new));
        Path installPlugin = repository.resolve("org/apache/maven/plugins/maven-install-plugin");
        try (var versions = Files.list(installPlugin)) {
            installPluginVersions = versions.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theReadmesInstallCommandInstallsTheLibraryWithThePinnedPluginsOnly() throws IOException {
        assertEquals(0, install.exitCode, install.output);
        // Maven's own default for a pom without a parent is install 2.4, which -o cannot fetch:
        // every module, the BOM included, must install with the version the parent pins.
        String pinned = pinnedVersion(Files.readString(root.resolve("pom.xml")), "maven-install-plugin");
        assertEquals(List.of(pinned), installPluginVersions, "maven-install-plugin versions the install used");
        assertFalse(install.output.contains("Tests run:"), "no test runs during the install");
        assertEquals(0, offlineInstall.exitCode, "the same command with -o:\n" + offlineInstall.output);
    }

    /**
     * The README's first program through the launcher's {@code run}, in the clone, with an older
     * JDK's {@code javac} first on the PATH where one is installed (the launcher finds JDK 25 on its
     * own). Run twice: the second run does not build again, even after something wrote sources
     * under a {@code target/} folder (as the consumer test itself does during {@code ./jasyncio test}).
     */
    @Test
    void theReadmesFirstProgramRunsThroughTheLauncherWhateverJavacIsOnThePath() throws Exception {
        assertTrue(readme.contains("\n./jasyncio run Hello.java\n"), "the README gives the launcher's run command");
        String program = block("java", "## A first program");
        assertTrue(program.contains("public class Hello "), "the README's program is Hello");
        Path clone = work.resolve("clone");
        Files.writeString(clone.resolve("Hello.java"), program);
        java.util.Map<String, String> env = new java.util.HashMap<>();
        Path olderJdk = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin");
        if (Files.isExecutable(olderJdk.resolve("javac"))) {
            env.put("PATH", olderJdk + File.pathSeparator + System.getenv("PATH"));
            Result javac = runProcess(clone, 60, env, "javac", "-version");
            assertTrue(javac.output.contains("javac 17"), "the PATH's javac is the older one: " + javac.output);
        }
        Result first = runProcess(clone, 400, env, "./jasyncio", "run", "Hello.java");
        assertEquals(0, first.exitCode, first.output);
        assertEquals("hello, world", lastLine(first.output), first.output);

        Path generated = clone.resolve("jasyncio-consumer-test/target/consumer/src/main/java/Generated.java");
        Files.createDirectories(generated.getParent());
        Files.writeString(generated, "class Generated {}\n"); // build output, newer than the build
        Result again = runProcess(clone, 120, env, "./jasyncio", "run", "Hello.java");
        assertEquals(0, again.exitCode, again.output);
        assertEquals("hello, world", lastLine(again.output), again.output);
        assertFalse(again.output.contains("jasyncio: building"), "no rebuild for files under target/:\n" + again.output);
    }

    /** The version the pom's pluginManagement gives {@code artifactId}. */
    private static String pinnedVersion(String pom, String artifactId) {
        Matcher m = Pattern.compile("<artifactId>" + artifactId + "</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find(), artifactId + " is pinned in " + pom.substring(0, 40));
        return m.group(1);
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        assertNotNull(value, "system property " + name + " (set by this module's pom)");
        return value;
    }

    private static Path artifactDir(String artifactId) {
        return repository.resolve("io/jasyncio").resolve(artifactId).resolve(version);
    }

    @Test
    void theRepositoryHoldsThePublishedArtifactsWithSourcesAndJavadocAndNothingElse() throws IOException {
        for (String artifact : PUBLISHED) {
            Path dir = artifactDir(artifact);
            for (String suffix : List.of(".jar", ".pom", "-sources.jar", "-javadoc.jar")) {
                assertTrue(Files.isRegularFile(dir.resolve(artifact + "-" + version + suffix)),
                        artifact + suffix + " installed in " + dir);
            }
            try (ZipFile sources = new ZipFile(dir.resolve(artifact + "-" + version + "-sources.jar").toFile());
                 ZipFile javadoc = new ZipFile(dir.resolve(artifact + "-" + version + "-javadoc.jar").toFile())) {
                assertTrue(sources.stream().anyMatch(e -> e.getName().endsWith(".java")), artifact + " sources jar has sources");
                assertNotNull(javadoc.getEntry("index.html"), artifact + " javadoc jar has an index.html");
            }
        }
        Path parentPom = artifactDir("jasyncio-parent").resolve("jasyncio-parent-" + version + ".pom");
        assertTrue(Files.isRegularFile(parentPom));
        String bom = Files.readString(artifactDir("jasyncio-bom").resolve("jasyncio-bom-" + version + ".pom"));
        for (String pom : List.of(Files.readString(parentPom), bom)) { // what a repository's rules ask of a published pom
            assertTrue(pom.contains("<name>Apache License, Version 2.0</name>"), "the license is declared");
            assertTrue(pom.contains("<url>https://github.com/jasyncio/jasyncio</url>"), "the project's address");
            assertTrue(pom.contains("<connection>scm:git:https://github.com/jasyncio/jasyncio.git</connection>"), "its scm");
        }
        assertTrue(Files.readString(root.resolve("LICENSE")).contains("Apache License"), "the license text is in the repository");
        for (String artifact : PUBLISHED) {
            assertTrue(bom.contains("<artifactId>" + artifact + "</artifactId>"), "the BOM manages " + artifact);
        }
        for (String artifact : NOT_PUBLISHED) {
            assertFalse(bom.contains(artifact), "the BOM leaves out " + artifact);
            assertFalse(Files.exists(repository.resolve("io/jasyncio").resolve(artifact)), artifact + " is not published");
            String pom = Files.readString(root.resolve(artifact).resolve("pom.xml"));
            assertTrue(pom.contains("<maven.deploy.skip>true</maven.deploy.skip>"), artifact + " is never deployed");
        }
    }

    @Test
    void theReadmesFirstProgramBuildsAndRunsWithOnlyWhatTheReadmeSaysOnTheClassPathAndTheModulePath() throws Exception {
        String dependencies = block("xml", "## Adding it to a build");
        String program = block("java", "## A first program");
        assertTrue(readme.contains("It needs no JVM flag"), "the README says the first program needs no flag");
        Matcher className = Pattern.compile("public class (\\w+)").matcher(program);
        assertTrue(className.find(), "the first program is a class");

        Path project = work.resolve("hello");
        deleteRecursively(project);
        Files.createDirectories(project.resolve("src/main/java"));
        Files.writeString(project.resolve("pom.xml"), consumerPom(dependencies));
        Files.writeString(project.resolve("src/main/java").resolve(className.group(1) + ".java"), program);
        Path settings = work.resolve("settings.xml");
        Files.writeString(settings, settings());

        Path classpathFile = project.resolve("target/classpath.txt");
        Result build = runProcess(project, 240, mvn(), "-B", "-q", "-s", settings.toString(), "compile",
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                "-Dmdep.outputFile=" + classpathFile, "-Dmdep.includeScope=runtime");
        assertEquals(0, build.exitCode, "the consumer project builds:\n" + build.output);
        String classpath = project.resolve("target/classes") + File.pathSeparator + Files.readString(classpathFile).trim();
        assertTrue(classpath.contains("jasyncio-core-" + version + ".jar"), classpath);
        assertTrue(classpath.contains(repository.toString()), "resolved from the throwaway repository: " + classpath);

        // With no flag at all: the portable task engine, announced by one line on standard error.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Result run = runProcess(project, 60, java, "-cp", classpath, className.group(1));
        assertEquals(0, run.exitCode, run.output);
        assertEquals("hello, world", lastLine(run.output), run.output);
        assertTrue(run.output.contains("jasyncio task engine: threads"), run.output);

        // The same program as a module of its own that requires io.jasyncio.core, with the flag
        // the README gives for the module path.
        Matcher moduleFlag = Pattern.compile("the flag names the module instead:\\s*`([^`]+)`").matcher(readme);
        assertTrue(moduleFlag.find(), "the README names the JVM flag for the module path");
        String modulePath = Files.readString(classpathFile).trim();
        Path modular = work.resolve("hello-modular");
        deleteRecursively(modular);
        Path sources = Files.createDirectories(modular.resolve("src/hello/hello"));
        Files.writeString(modular.resolve("src/hello/module-info.java"), "module hello {\n    requires io.jasyncio.core;\n}\n");
        Files.writeString(sources.resolve(className.group(1) + ".java"), "package hello;\n\n" + program);
        Path jdkBin = Path.of(System.getProperty("java.home"), "bin");
        Result compiled = runProcess(modular, 120, jdkBin.resolve("javac").toString(), "--module-path", modulePath,
                "-d", "out/hello", "src/hello/module-info.java", "src/hello/hello/" + className.group(1) + ".java");
        assertEquals(0, compiled.exitCode, "the modular consumer compiles:\n" + compiled.output);
        for (boolean withFlag : new boolean[] {false, true}) { // the flag is a performance option: both run
            List<String> modularCommand = new ArrayList<>();
            modularCommand.add(jdkBin.resolve("java").toString());
            if (withFlag) {
                modularCommand.addAll(List.of(moduleFlag.group(1).split(" ")));
            }
            modularCommand.addAll(List.of("--module-path", "out/hello" + File.pathSeparator + modulePath,
                    "-m", "hello/hello." + className.group(1)));
            Result modularRun = runProcess(modular, 60, modularCommand.toArray(String[]::new));
            assertEquals(0, modularRun.exitCode, modularRun.output);
            assertEquals("hello, world", lastLine(modularRun.output), modularRun.output);
            assertEquals(!withFlag, modularRun.output.contains("jasyncio task engine: threads"),
                    "the flag for the module path selects the continuation engine: " + modularRun.output);
            if (!withFlag) { // and the INFO line names the module path's own flag, not ALL-UNNAMED
                assertTrue(modularRun.output.contains(moduleFlag.group(1)), modularRun.output);
            }
        }
    }

    /** A module that requires io.jasyncio.core, compiled against the installed jars. */
    private static Result compileModule(Path modular, String modulePath, String className, String source) throws Exception {
        Path sources = Files.createDirectories(modular.resolve("src/hello/hello"));
        Files.writeString(modular.resolve("src/hello/module-info.java"), "module hello {\n    requires io.jasyncio.core;\n}\n");
        Files.writeString(sources.resolve(className + ".java"), source);
        Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
        return runProcess(modular, 120, javac.toString(), "--module-path", modulePath, "-d", "out/hello",
                "src/hello/module-info.java", "src/hello/hello/" + className + ".java");
    }

    private static String installedJar(String artifact) {
        return artifactDir(artifact).resolve(artifact + "-" + version + ".jar").toString();
    }

    /**
     * Two things a user's first hour ran into: a checked exception from a body is caught by its
     * own type around {@code run} (the issue's very snippet), and every facade method, asyncio's
     * {@code wait} included, is callable unqualified inside an instance method, where
     * {@code Object}'s methods hide a static import of the same name.
     */
    @Test
    void aCheckedExceptionIsCaughtByTypeAndTheFacadeIsCallableInsideAnInstanceMethod() throws Exception {
        Path project = work.resolve("first-hour");
        deleteRecursively(project);
        Files.createDirectories(project);
        Files.writeString(project.resolve("FirstHour.java"), """
                import static io.jasyncio.Asyncio.*;

                import io.jasyncio.task.DoneAndPending;
                import io.jasyncio.task.ReturnWhen;
                import io.jasyncio.task.Task;

                import java.io.IOException;
                import java.util.List;

                public class FirstHour {
                    public static void main(String[] args) {
                        try { run(() -> openConnection("127.0.0.1", 1)); } catch (IOException e) {
                            System.out.println("caught " + e.getClass().getSimpleName());
                        }
                        System.out.println(new FirstHour().firstDone());
                    }

                    /** An instance method: Object.wait, notify, equals... are in scope here. */
                    String firstDone() {
                        return run(() -> {
                            Task<String> fast = createTask(() -> sleep(0.01, "fast"));
                            Task<String> slow = createTask(() -> sleep(60, "slow"));
                            DoneAndPending<Task<String>> first = waitTasks(List.of(fast, slow), ReturnWhen.FIRST_COMPLETED);
                            DoneAndPending<Task<String>> all = waitTasks(List.of(fast), 1.0);
                            slow.cancel();
                            return "first done: " + await(first.done().iterator().next()) + ", all done: " + all.pending().isEmpty();
                        });
                    }
                }
                """);
        Path jdkBin = Path.of(System.getProperty("java.home"), "bin");
        String classpath = installedJar("jasyncio-core");
        Result compiled = runProcess(project, 120, jdkBin.resolve("javac").toString(), "-Xlint:all", "-Werror",
                "-cp", classpath, "-d", "out", "FirstHour.java");
        assertEquals(0, compiled.exitCode, "compiles without a warning:\n" + compiled.output);
        Result run = runProcess(project, 60, jdkBin.resolve("java").toString(), "-cp",
                "out" + File.pathSeparator + classpath, "FirstHour");
        assertEquals(0, run.exitCode, run.output);
        assertTrue(run.output.contains("caught ConnectException"), run.output);
        assertEquals("first done: fast, all done: true", lastLine(run.output), run.output);
    }

    @Test
    void onTheModulePathOnlyTheExportedPackagesAreVisible() throws Exception {
        String modulePath = installedJar("jasyncio-core");
        // The control: an exported type compiles (so a failure below is the export, not the setup).
        Path exported = work.resolve("exported-type");
        deleteRecursively(exported);
        Result control = compileModule(exported, modulePath, "UsesApi", """
                package hello;

                import io.jasyncio.loop.EventLoop;

                public class UsesApi {
                    EventLoop loop;
                }
                """);
        assertEquals(0, control.exitCode, control.output);
        // The helpers under every layer are exported to the JUnit extension only; interop and the
        // task layer's internals not at all.
        for (String internal : List.of("io.jasyncio.util.Throwables", "io.jasyncio.interop.JavaFutures",
                "io.jasyncio.task.internal.Wait")) {
            Path dir = work.resolve("internal-type");
            deleteRecursively(dir);
            String simpleName = internal.substring(internal.lastIndexOf('.') + 1);
            Result refused = compileModule(dir, modulePath, "UsesInternal", """
                    package hello;

                    import %s;

                    public class UsesInternal {
                        %s internal;
                    }
                    """.formatted(internal, simpleName));
            assertTrue(refused.exitCode != 0, internal + " must not be visible to a user's module:\n" + refused.output);
            assertTrue(refused.output.contains("is not visible") || refused.output.contains("does not export"),
                    internal + " is refused for its package's export, not for anything else:\n" + refused.output);
        }
    }

    @Test
    void onTheModulePathSignalsWorkAndTheNativeLoopsNameTheirModulesFlag() throws Exception {
        Path modular = work.resolve("checks-modular");
        deleteRecursively(modular);
        String modulePath = installedJar("jasyncio-core") + File.pathSeparator + installedJar("jasyncio-native")
                + File.pathSeparator + installedJar("jasyncio-epoll");
        Result compiled = compileModule(modular, installedJar("jasyncio-core"), "Checks", """
                package hello;

                import static io.jasyncio.Asyncio.*;

                import io.jasyncio.loop.EventLoops;
                import io.jasyncio.loop.Future;
                import io.jasyncio.loop.Signal;

                public class Checks {
                    public static void main(String[] args) {
                        System.out.println(run(() -> {
                            Future<String> delivered = getRunningLoop().createFuture();
                            getRunningLoop().addSignalHandler(Signal.SIGUSR1, () -> delivered.setResult("SIGUSR1 handled"));
                            Signal.SIGUSR1.raise();
                            return EventLoops.implementationOf(getRunningLoop()) + ": " + await(delivered);
                        }));
                    }
                }
                """);
        assertEquals(0, compiled.exitCode, compiled.output);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String epollFlag = "--add-exports java.base/sun.nio.ch=io.jasyncio.core";
        // The provider module is bound through core's "uses": nothing requires it by name.
        List<String> base = List.of("--enable-native-access=io.jasyncio.nativeio,io.jasyncio.epoll", "--module-path",
                "out/hello" + File.pathSeparator + modulePath, "-Djasyncio.loop=epoll");
        List<String> withFlag = new ArrayList<>(List.of(java));
        withFlag.addAll(List.of(epollFlag.split(" ")));
        withFlag.addAll(base);
        withFlag.addAll(List.of("-m", "hello/hello.Checks"));
        Result run = runProcess(modular, 60, withFlag.toArray(String[]::new));
        assertEquals(0, run.exitCode, run.output);
        assertEquals("epoll: SIGUSR1 handled", lastLine(run.output), run.output);

        List<String> withoutFlag = new ArrayList<>(List.of(java));
        withoutFlag.addAll(base);
        withoutFlag.addAll(List.of("-m", "hello/hello.Checks"));
        Result refused = runProcess(modular, 60, withoutFlag.toArray(String[]::new));
        assertTrue(refused.exitCode != 0, "without the export the epoll loop cannot run:\n" + refused.output);
        assertTrue(refused.output.contains(epollFlag), "the reason names the module path's flag:\n" + refused.output);

        // io_uring reads fds through jasyncio-native too, so the same flag serves it, and it runs
        // without the epoll module. Its provider may find the kernel's io_uring disabled; then it
        // must say so, not fail on a module boundary.
        List<String> uring = new ArrayList<>(List.of(java));
        uring.addAll(List.of(epollFlag.split(" ")));
        uring.addAll(List.of("--enable-native-access=io.jasyncio.nativeio,io.jasyncio.uring", "--module-path",
                "out/hello" + File.pathSeparator + installedJar("jasyncio-core") + File.pathSeparator
                        + installedJar("jasyncio-native") + File.pathSeparator + installedJar("jasyncio-uring"),
                "-Djasyncio.loop=io_uring", "-m", "hello/hello.Checks"));
        Result onUring = runProcess(modular, 60, uring.toArray(String[]::new));
        if (onUring.exitCode == 0) {
            assertEquals("io_uring: SIGUSR1 handled", lastLine(onUring.output), onUring.output);
        } else {
            assertTrue(onUring.output.contains("event loop 'io_uring' cannot run here"), onUring.output);
            assertFalse(onUring.output.contains("IllegalAccess") || onUring.output.contains("does not export"),
                    "not a module boundary:\n" + onUring.output);
        }
    }

    /**
     * A backend built outside the reactor, as another project builds one: this repository's
     * poll(2) backend's sources in a project of their own, compiled against the installed core and
     * native kit, whose test adds the backend test kit as the README's "Writing a loop backend"
     * says and runs core's suites from the installed kit on it, on the module path. The kit is a
     * named module of its own.
     */
    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void anOutsideBackendRunsThePublishedSuitesFromTheInstalledTestKit() throws Exception {
        java.io.StringWriter described = new java.io.StringWriter();
        int describedExit = java.util.spi.ToolProvider.findFirst("jar").orElseThrow().run(new java.io.PrintWriter(described),
                new java.io.PrintWriter(described), "--describe-module", "--file", installedJar("jasyncio-backend-tck"));
        assertEquals(0, describedExit, described.toString());
        assertTrue(described.toString().startsWith("io.jasyncio.tck@" + version), "the kit is a named module:\n" + described);
        assertTrue(described.toString().contains("exports io.jasyncio.tck"), described.toString());

        Path project = work.resolve("outside-backend");
        deleteRecursively(project);
        Path backendSources = root.resolve("jasyncio-backend-poll/src/main");
        try (var paths = Files.walk(backendSources)) {
            for (Path p : paths.toList()) {
                Path to = project.resolve("src/main").resolve(backendSources.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        Path tests = Files.createDirectories(project.resolve("src/test/java/example"));
        Files.writeString(tests.resolve("BackendTckTest.java"), """
                package example;

                import io.jasyncio.tck.BackendTck;
                import org.junit.jupiter.api.Test;

                import java.io.File;
                import java.nio.file.Files;
                import java.nio.file.Path;
                import java.util.List;
                import java.util.Set;
                import java.util.stream.Stream;

                import static org.junit.jupiter.api.Assertions.assertTrue;

                class BackendTckTest {
                    static final Set<String> SUITES = Set.of("io.jasyncio.net.TcpEchoTest", "io.jasyncio.net.HalfCloseTest",
                            "io.jasyncio.net.TlsBufferedDataTest", "io.jasyncio.subprocess.SubprocessTest", "io.jasyncio.sync.LockTest");

                    @Test
                    void coresSuitesPassOnThisBackend() throws Exception {
                        Path kit = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator)).map(Path::of)
                                .filter(p -> p.getFileName().toString().startsWith("jasyncio-native-")).findFirst().orElseThrow();
                        BackendTck.Result result = BackendTck.run("poll", List.of(Path.of("target", "classes"), kit),
                                List.of("--add-exports", "java.base/sun.nio.ch=io.jasyncio.core",
                                        "--enable-native-access=io.jasyncio.core,io.jasyncio.nativeio,io.jasyncio.poll"),
                                SUITES::contains, 4);
                        Files.writeString(Path.of("target", "tck-run.txt"), "kit from "
                                + BackendTck.class.getProtectionDomain().getCodeSource().getLocation() + "\\n" + result.output());
                        assertTrue(result.providerCameFrom("poll", "io.jasyncio.poll"), result.output());
                        assertTrue(result.passed(), result.output());
                    }
                }
                """);
        Files.writeString(project.resolve("pom.xml"), outsideBackendPom(block("xml", "## Writing a loop backend")));
        Path settings = work.resolve("settings.xml");
        Files.writeString(settings, settings());
        Result build = runProcess(project, 540, mvn(), "-B", "-s", settings.toString(), "test");
        Path run = project.resolve("target/tck-run.txt");
        String tckRun = Files.exists(run) ? Files.readString(run) : "(no run)";
        assertEquals(0, build.exitCode, "the outside backend builds and passes:\n" + build.output + "\n" + tckRun);
        assertTrue(build.output.contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0"), build.output);
        assertTrue(tckRun.lines().findFirst().orElse("").endsWith(installedJar("jasyncio-backend-tck")),
                "the test kit came from the installed artifact:\n" + tckRun);
        Matcher summary = Pattern.compile("summary: found (\\d+), succeeded (\\d+), failed 0").matcher(tckRun);
        assertTrue(summary.find(), tckRun);
        assertTrue(Integer.parseInt(summary.group(2)) >= 20, "the suites ran on the outside backend:\n" + tckRun);
        assertTrue(tckRun.contains("provider poll from module io.jasyncio.poll"), tckRun);
    }

    /** A user's dependencyManagement: JUnit's BOM at {@code junitVersion} and jasyncio's, imported. */
    private static String managedByTheBoms(String junitVersion) {
        return """
                <dependencyManagement>
                  <dependencies>
                    <dependency>
                      <groupId>org.junit</groupId>
                      <artifactId>junit-bom</artifactId>
                      <version>%2$s</version>
                      <type>pom</type>
                      <scope>import</scope>
                    </dependency>
                    <dependency>
                      <groupId>io.jasyncio</groupId>
                      <artifactId>jasyncio-bom</artifactId>
                      <version>%1$s</version>
                      <type>pom</type>
                      <scope>import</scope>
                    </dependency>
                  </dependencies>
                </dependencyManagement>
                """.formatted(version, junitVersion);
    }

    /** The outside backend's project: core and the native kit, plus the README's test kit snippet; tests on the class path. */
    private static String outsideBackendPom(String readmeSnippet) {
        String classPathTests = """
                <executions>
                  <execution>
                    <id>default-testCompile</id>
                    <configuration><useModulePath>false</useModulePath></configuration>
                  </execution>
                </executions>
              </plugin>
              <plugin>
                <groupId>org.apache.maven.plugins</groupId>
                <artifactId>maven-surefire-plugin</artifactId>
                <version>3.5.2</version>
                <configuration><useModulePath>false</useModulePath></configuration>
                """;
        return projectPom("outside-backend", classPathTests, managedByTheBoms(property("junit.version")) + """
                <dependencies>
                  <dependency>
                    <groupId>io.jasyncio</groupId>
                    <artifactId>jasyncio-core</artifactId>
                  </dependency>
                  <dependency>
                    <groupId>io.jasyncio</groupId>
                    <artifactId>jasyncio-native</artifactId>
                  </dependency>
                """ + readmeSnippet + "</dependencies>\n");
    }

    /** The oldest JUnit Jupiter jasyncio-junit supports, one between (the last 5.x before 5.13), and the one it is built with (6). */
    static List<String> junitVersions() {
        return List.of(property("junit.oldest.version"), "5.12.2", property("junit.version"));
    }

    @ParameterizedTest(name = "JUnit {0}")
    @MethodSource("junitVersions")
    void anAsyncTestRunsOnTheModulePath(String junitVersion) throws Exception {
        // A user's test module: jasyncio-junit as its README says, JUnit's engine and launcher
        // beside it at the version the user's build manages (with JUnit's BOM, as teams do),
        // resolved from the throwaway repository by Maven.
        Path project = work.resolve("async-test-" + junitVersion);
        deleteRecursively(project);
        Files.createDirectories(project);
        Files.writeString(project.resolve("pom.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>example</groupId>
                  <artifactId>async-test</artifactId>
                  <version>1</version>
                  %1$s
                  <dependencies>
                    <dependency>
                      <groupId>io.jasyncio</groupId>
                      <artifactId>jasyncio-junit</artifactId>
                    </dependency>
                    <dependency>
                      <groupId>org.junit.jupiter</groupId>
                      <artifactId>junit-jupiter-engine</artifactId>
                    </dependency>
                    <dependency>
                      <groupId>org.junit.platform</groupId>
                      <artifactId>junit-platform-launcher</artifactId>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(managedByTheBoms(junitVersion).strip()));
        Path settings = work.resolve("settings.xml");
        Files.writeString(settings, settings());
        Path modulePathFile = project.resolve("module-path.txt");
        Result resolved = runProcess(project, 240, mvn(), "-B", "-q", "-s", settings.toString(),
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                "-Dmdep.outputFile=" + modulePathFile, "-Dmdep.includeScope=runtime");
        assertEquals(0, resolved.exitCode, resolved.output);
        String modulePath = Files.readString(modulePathFile).trim();
        assertTrue(modulePath.contains("jasyncio-junit-" + version + ".jar"), modulePath);
        assertTrue(modulePath.contains("junit-jupiter-api-" + junitVersion + ".jar"), "runs on JUnit " + junitVersion + ": " + modulePath);

        Path sources = Files.createDirectories(project.resolve("src/hellotest/hellotest"));
        Files.writeString(project.resolve("src/hellotest/module-info.java"), """
                module hellotest {
                    requires io.jasyncio.junit;
                    requires org.junit.platform.launcher;
                    opens hellotest to org.junit.platform.commons;
                }
                """);
        Files.writeString(sources.resolve("SleepTest.java"), """
                package hellotest;

                import static io.jasyncio.Asyncio.*;
                import static org.junit.jupiter.api.Assertions.assertEquals;

                import io.jasyncio.junit.AsyncTest;
                import io.jasyncio.junit.OnEveryLoop;
                import org.junit.jupiter.api.Nested;

                @OnEveryLoop
                class SleepTest {
                    @AsyncTest
                    void awaitsATaskOnTheTestsOwnLoop() {
                        assertEquals("done", await(createTask(() -> sleep(0.01, "done"))));
                    }

                    @Nested
                    class Inner {
                        @AsyncTest(virtualTime = true)
                        void anHourOfTimersTakesNoTime() {
                            assertEquals("late", await(createTask(() -> sleep(3600, "late"))));
                        }
                    }
                }
                """);
        Files.writeString(sources.resolve("RunTests.java"), """
                package hellotest;

                import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

                import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
                import org.junit.platform.launcher.core.LauncherFactory;
                import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

                import java.io.PrintWriter;

                public class RunTests {
                    public static void main(String[] args) {
                        SummaryGeneratingListener listener = new SummaryGeneratingListener();
                        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                                .selectors(selectClass(SleepTest.class)).build(), listener);
                        listener.getSummary().printFailuresTo(new PrintWriter(System.out, true), 30);
                        System.out.println("succeeded " + listener.getSummary().getTestsSucceededCount()
                                + ", failed " + listener.getSummary().getTotalFailureCount());
                    }
                }
                """);
        Path jdkBin = Path.of(System.getProperty("java.home"), "bin");
        Result compiled = runProcess(project, 120, jdkBin.resolve("javac").toString(), "--module-path", modulePath,
                "-d", "out/hellotest", "src/hellotest/module-info.java", "src/hellotest/hellotest/SleepTest.java",
                "src/hellotest/hellotest/RunTests.java");
        assertEquals(0, compiled.exitCode, "the test module compiles against jasyncio-junit's exports:\n" + compiled.output);
        Result run = runProcess(project, 120, jdkBin.resolve("java").toString(), "--module-path",
                "out/hellotest" + File.pathSeparator + modulePath, "-m", "hellotest/hellotest.RunTests");
        assertEquals(0, run.exitCode, run.output);
        // @OnEveryLoop (found on the enclosing class of the @Nested one too): nio, the only loop on this module path.
        assertEquals("succeeded 2, failed 0", lastLine(run.output), run.output);
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\\R");
        return lines[lines.length - 1].strip();
    }

    /** The body of the first fenced {@code lang} block after {@code heading} in the README. */
    private static String block(String lang, String heading) {
        int at = readme.indexOf("\n" + heading + "\n");
        assertTrue(at >= 0, "the README has a section '" + heading + "'");
        int start = readme.indexOf("```" + lang + "\n", at);
        assertTrue(start >= 0, "a ```" + lang + " block under '" + heading + "'");
        start += lang.length() + 4;
        return readme.substring(start, readme.indexOf("```", start));
    }

    /** A user's project: its own coordinates and compiler settings, plus the README's snippet. */
    private static String consumerPom(String readmeSnippet) {
        return projectPom("hello", "", readmeSnippet);
    }

    /**
     * A project {@code artifactId} with the compiler settings and pinned plugins, {@code afterCompiler}
     * inside the compiler plugin's element (its executions, then more plugins), and {@code body}.
     */
    private static String projectPom(String artifactId, String afterCompiler, String body) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>example</groupId>
                  <artifactId>%s</artifactId>
                  <version>1</version>
                  <properties>
                    <maven.compiler.release>25</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <build>
                    <plugins>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-resources-plugin</artifactId>
                        <version>3.3.1</version>
                      </plugin>
                      <plugin>
                        <groupId>org.apache.maven.plugins</groupId>
                        <artifactId>maven-compiler-plugin</artifactId>
                        <version>3.14.0</version>
                """.formatted(artifactId) + afterCompiler + """
                      </plugin>
                    </plugins>
                  </build>
                """ + body + "</project>\n";
    }

    /** Our artifacts from the throwaway repository; everything else from this machine's repository, read-only. */
    private static String settings() {
        return """
                <settings>
                  <localRepository>%s</localRepository>
                  <mirrors>
                    <mirror>
                      <id>this-machine</id>
                      <mirrorOf>*</mirrorOf>
                      <url>%s</url>
                    </mirror>
                  </mirrors>
                </settings>
                """.formatted(repository, Path.of(property("machine.repository")).toUri());
    }

    private static String mvn() {
        String home = System.getProperty("maven.home");
        return home != null && Files.isExecutable(Path.of(home, "bin", "mvn")) ? Path.of(home, "bin", "mvn").toString() : "mvn";
    }

    private record Result(int exitCode, String output) {
    }

    private static Result runProcess(Path dir, int timeoutSeconds, String... command) throws Exception {
        return runProcess(dir, timeoutSeconds, java.util.Map.of(), command);
    }

    /** As {@link #runProcess(Path, int, String...)}, with {@code env} added to the environment. */
    private static Result runProcess(Path dir, int timeoutSeconds, java.util.Map<String, String> env, String... command)
            throws Exception {
        Path log = Files.createTempFile(work, "process", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("MAVEN_OPTS", "--sun-misc-unsafe-memory-access=allow");
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                return new Result(-1, "timed out after " + timeoutSeconds + " s: " + String.join(" ", command) + "\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** The sources as a fresh clone has them (no build output, no .git), copied into {@code to}. */
    private static Path copyOfTheSources(Path from, Path to) throws IOException {
        deleteRecursively(to);
        try (var paths = Files.walk(from)) {
            for (Path p : paths.filter(p -> !isBuildOutputOrGit(from.relativize(p))).toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return to;
    }

    private static boolean isBuildOutputOrGit(Path relative) {
        for (Path part : relative) {
            if (part.toString().equals("target") || part.toString().equals(".git")) {
                return true;
            }
        }
        return false;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }
}
