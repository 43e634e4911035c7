package io.jasyncio.tck;

import io.jasyncio.loop.spi.EventLoopProvider;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.ServiceLoader;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The main of {@link BackendTck}'s JVM (core, its patched-in suites and the backend on the module
 * path; this class and JUnit on the class path): says which module each loop provider came from,
 * runs the every-loop tests of the classes named in {@code args} and prints the summary
 * ({@link #SUMMARY}, the last line). Exits 1 when a test failed.
 */
public final class TckMain {
    /** The line that ends the run: what {@link BackendTck} reads. */
    static final String SUMMARY = "summary: found %d, succeeded %d, failed %d, skipped %d";

    private TckMain() {
    }

    /** Runs the every-loop tests of the test classes named in {@code args}; exits 1 if one failed. */
    public static void main(String[] args) {
        for (ServiceLoader.Provider<EventLoopProvider> p : ServiceLoader.load(EventLoopProvider.class).stream().toList()) {
            System.out.println("provider " + p.get().name() + " from " + p.type().getModule());
        }
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(Arrays.stream(args).map(name -> selectClass(name)).toList())
                .filters(TagFilter.includeTags("every-loop"))
                .configurationParameter("junit.jupiter.execution.timeout.default", "60 s")
                .configurationParameter("junit.jupiter.execution.timeout.thread.mode.default", "SEPARATE_THREAD")
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printFailuresTo(out, 30);
        out.println(String.format(SUMMARY, summary.getTestsFoundCount(), summary.getTestsSucceededCount(),
                summary.getTotalFailureCount(), summary.getTestsSkippedCount()));
        System.exit(summary.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
