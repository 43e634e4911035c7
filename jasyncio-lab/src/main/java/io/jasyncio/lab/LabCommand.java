package io.jasyncio.lab;

import io.jasyncio.lab.experiments.Experiment;
import io.jasyncio.lab.experiments.Experiments;
import io.jasyncio.lab.experiments.Lab;
import io.jasyncio.lab.experiments.Result;
import io.jasyncio.lab.report.HtmlReport;
import io.jasyncio.lab.report.JsonReport;
import io.jasyncio.lab.report.OutputFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./jasyncio lab}: the tour of the loop's claims, each measured on a live loop with a
 * verdict computed from the measurements. Exits non-zero when any claim does not hold.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "Every claim about the loop, measured on a live loop.")
final class LabCommand implements Callable<Integer> {
    @Option(names = "--list", description = "list the experiments and exit")
    boolean list;

    @Option(names = "--only", split = ",", paramLabel = "NAME",
            description = "run only these experiments (repeatable, or comma separated)")
    List<String> only = new ArrayList<>();

    @Option(names = "--quick", description = "small sizes (what the tests run)")
    boolean quick;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "also write a self-contained HTML report with charts")
    Path html;

    private final PrintStream out;

    LabCommand() {
        this(System.out);
    }

    LabCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws IOException {
        if (list) {
            for (Experiment e : Experiments.all()) {
                out.printf(Locale.ROOT, "%-14s %s%n", e.name(), e.title());
            }
            return 0;
        }
        for (String problem : new String[]{OutputFiles.problem("--json", json), OutputFiles.problem("--html", html)}) {
            if (problem != null) { // before the run, not after a minute of it
                System.err.println("jasyncio lab: " + problem);
                return 2;
            }
        }
        List<Experiment> selected;
        try {
            selected = Experiments.select(only);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        out.printf(Locale.ROOT, "jasyncio lab: %d experiment(s)%s, measured on this machine (%d CPUs, Java %s)%n",
                selected.size(), quick ? " in quick mode" : "", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        List<Result> results = new Lab(out, quick).run(selected);
        if (json != null) {
            Files.writeString(json, JsonReport.render(results, JsonReport.runMetadata(quick, Main.VERSION)),
                    StandardCharsets.UTF_8);
            out.println("wrote " + json);
        }
        if (html != null) {
            Files.writeString(html, HtmlReport.render(results, quick), StandardCharsets.UTF_8);
            out.println("wrote " + html);
        }
        return Lab.exitCode(results);
    }
}
