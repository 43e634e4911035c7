package io.jasyncio.lab;

import io.jasyncio.lab.doctor.Diagnoses;
import io.jasyncio.lab.doctor.DoctorRecording;
import io.jasyncio.lab.doctor.DoctorReport;
import io.jasyncio.lab.report.OutputFiles;
import io.jasyncio.lab.terminal.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./jasyncio doctor -- java ... Main}: runs the user's program with
 * {@code -Djasyncio.doctor=FILE}, so the library watches every loop the program creates and
 * records what it sees; when the program ends (or {@code --duration} passes and it is asked to
 * stop), reads the record back and says what is wrong, with the evidence.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Run a jasyncio program under observation and diagnose its loops: "
                + "./jasyncio doctor [--html F] [--json F] [--duration S] -- java ... Main")
final class DoctorCommand implements Callable<Integer> {
    @Option(names = "--html", paramLabel = "FILE", description = "also write the report as a self-contained HTML page")
    Path html;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the report, with the raw series, as JSON")
    Path json;

    @Option(names = "--duration", paramLabel = "SECONDS",
            description = "stop the program (SIGTERM) after this long and report; default: wait for it to end")
    Double duration;

    @Parameters(arity = "1..*", paramLabel = "JAVA_COMMAND",
            description = "the program's java command line, after -- (a plain 'java' runs the JDK this command runs on)")
    List<String> command = new ArrayList<>();

    private final PrintStream out;

    DoctorCommand() {
        this(System.out);
    }

    DoctorCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        for (String problem : new String[]{OutputFiles.problem("--html", html), OutputFiles.problem("--json", json)}) {
            if (problem != null) {
                System.err.println("jasyncio doctor: " + problem);
                return 2;
            }
        }
        String launcher = Path.of(command.getFirst()).getFileName().toString();
        if (!launcher.equals("java") && !launcher.equals("java.exe")) {
            System.err.println("jasyncio doctor: the command must be a java command line (java ... Main), not "
                    + command.getFirst());
            return 2;
        }
        Path raw = Files.createTempFile("jasyncio-doctor", ".txt");
        try {
            List<String> cmd = new ArrayList<>(command);
            if (cmd.getFirst().equals("java")) { // plain "java": the JDK the launcher found, not the PATH's
                cmd.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
            }
            cmd.add(1, "-Djasyncio.doctor=" + raw);
            Terminal.wrap("jasyncio doctor: running " + String.join(" ", command), "", "    ").forEach(out::println);
            out.flush();
            // The program's output goes where the doctor's goes (a terminal, a file, a test's buffer).
            Process process = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .redirectErrorStream(true).start();
            Thread copier = Thread.ofPlatform().daemon().name("doctor-program-output").start(() -> {
                try {
                    process.getInputStream().transferTo(out);
                } catch (IOException ended) {
                    // the program is gone
                }
            });
            int exit = waitFor(process);
            copier.join(5000);
            out.flush();
            out.println("jasyncio doctor: the program " + (exit < 0 ? "was stopped after " + duration + " s"
                    : "exited with code " + exit));
            DoctorRecording recording = DoctorRecording.read(raw);
            Diagnoses.Reading reading = Diagnoses.of(recording);
            DoctorReport.print(out, recording, reading);
            if (json != null) {
                Files.writeString(json, DoctorReport.json(recording, reading), StandardCharsets.UTF_8);
                out.println("wrote " + json);
            }
            if (html != null) {
                Files.writeString(html, DoctorReport.html(recording, reading), StandardCharsets.UTF_8);
                out.println("wrote " + html);
            }
            return 0;
        } finally {
            Files.deleteIfExists(raw);
        }
    }

    /** The exit code, or -1 when the duration ran out and the program was asked to stop. */
    private int waitFor(Process process) throws InterruptedException {
        if (duration == null) {
            return process.waitFor();
        }
        if (process.waitFor((long) (duration * 1000), TimeUnit.MILLISECONDS)) {
            return process.exitValue();
        }
        process.destroy(); // SIGTERM: the shutdown hooks run, the doctor's last records among them
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        return -1;
    }
}
