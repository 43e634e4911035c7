package io.jasyncio.lab;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The doctor on the example service (examples/doctor-service), each fault on by itself in a child
 * JVM: its diagnosis appears, and no other; with every fault off, none at all. Each run takes a
 * few seconds: JVM start-up and the service's 2 s of load.
 */
class DoctorCommandTest {
    private static final Path SERVICE = Path.of("..", "examples", "doctor-service", "OrderService.java");

    @TempDir
    static Path classes;

    @BeforeAll
    static void compileTheExampleService() {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int code = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                "-proc:none", SERVICE.toString());
        assertEquals(0, code, "the example service compiles");
    }

    private static Doctored run(String faults) throws Exception {
        return doctor(Files.createTempDirectory(classes, "run"), faults.isEmpty() ? new String[0] : faults.split(" "));
    }

    private record Doctored(String output, Map<String, Object> report) {
        /** Every diagnosis's finding, cure and evidence, from the JSON (the output also holds the program's own). */
        @SuppressWarnings("unchecked")
        String findings() {
            StringBuilder text = new StringBuilder();
            for (Object d : (List<Object>) report.get("diagnoses")) {
                Map<String, Object> m = (Map<String, Object>) d;
                text.append(m.get("finding")).append('\n').append(m.get("cure")).append('\n')
                        .append(String.join("\n", (List<String>) m.get("evidence"))).append('\n');
            }
            return text.toString();
        }

        @SuppressWarnings("unchecked")
        Set<String> kinds() {
            Set<String> kinds = new TreeSet<>();
            for (Object d : (List<Object>) report.get("diagnoses")) {
                kinds.add((String) ((Map<String, Object>) d).get("kind"));
            }
            return kinds;
        }
    }

    @SuppressWarnings("unchecked")
    private static Doctored doctor(Path dir, String... faults) throws Exception {
        Path json = dir.resolve("doctor.json");
        List<String> args = new ArrayList<>(List.of("--json", json.toString(), "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED",
                "-cp", classes + java.io.File.pathSeparator + System.getProperty("java.class.path"),
                "OrderService", "--seconds", "2", "--min-requests", "150"));
        args.addAll(List.of(faults));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int code = new CommandLine(new DoctorCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
                .execute(args.toArray(String[]::new));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, output);
        return new Doctored(output, (Map<String, Object>) TinyJson.parse(Files.readString(json)));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aHealthyServiceGetsNoDiagnosis() throws Exception {
        Doctored run = run("");
        assertEquals(Set.of(), run.kinds(), run.output);
        assertTrue(run.output.contains("no diagnosis"), run.output);
        assertEquals(Boolean.TRUE, run.report.get("healthy"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aBlockingCallIsNamedByItsFrame() throws Exception {
        Doctored run = run("--block");
        assertEquals(Set.of("blocking-call"), run.kinds(), run.output);
        assertTrue(run.findings().contains("at OrderService.renderReportBlocking(OrderService.java:"), run.output);
        assertTrue(run.findings().contains("move it off the loop: toThread"), run.output);
        // each hold is one line in the program's own output; its stack is in the report
        String program = run.output.substring(run.output.indexOf("jasyncio doctor: running"),
                run.output.indexOf("jasyncio doctor: the program "));
        List<String> holds = program.lines().filter(l -> l.startsWith("jasyncio doctor: Event loop on thread")).toList();
        assertTrue(holds.stream().anyMatch(l -> l.contains("at OrderService.renderReportBlocking(")), program);
        assertTrue(holds.stream().allMatch(l -> l.endsWith("(the stack: in the doctor's report)")), program);
        assertTrue(program.lines().noneMatch(l -> l.startsWith("\tat ") || l.contains("loop thread stack while blocked")),
                "no stack in the program's output: " + program);
        assertTrue(run.findings().contains("loop thread stack while held:"), run.output);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void awaitsThatDoNotYieldAreStarvation() throws Exception {
        Doctored run = run("--starve");
        assertEquals(Set.of("no-yield"), run.kinds(), run.output);
        assertTrue(run.findings().contains("task 'cache-refresh' ran"), run.output);
        assertTrue(run.findings().contains("without a pending await"), run.output);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void cancelledTimeoutsAndLostExceptionsAreFound() throws Exception {
        Doctored run = run("--timeouts --lost-errors");
        assertEquals(Set.of("cancelled-timers", "lost-exceptions"), run.kinds(), run.output);
        assertTrue(run.findings().contains("of the timer heap"), run.output);
        assertTrue(run.findings().contains("audit backend refused order"), run.output);
    }

    @Test
    void aReportPathThatCannotBeWrittenFailsBeforeTheProgramRuns(@TempDir Path dir) {
        StandardError run = StandardError.capture(() -> new CommandLine(new DoctorCommand(new PrintStream(new ByteArrayOutputStream())))
                .execute("--json", dir.resolve("no/such/dir/x.json").toString(), "--", "java", "-version"));
        assertEquals(2, run.exitCode());
        assertTrue(run.text().contains("jasyncio doctor: --json ") && run.text().contains(": no such directory "), run.text());
    }
}
