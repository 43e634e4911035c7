package io.jasyncio.lab;

import io.jasyncio.lab.report.HtmlReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML report in a real browser, headless Chromium, on a phone's width (390 px) and a laptop's
 * (1280 px): the page itself never scrolls sideways, preformatted tables keep their lines (they
 * scroll in their own box), chart text stays readable, no word breaks in the middle, and every
 * chart is drawn, the throughput bars with their spread. The page is shown at each width in an
 * iframe of exactly that width (headless Chromium will not make its window narrower than 500 px),
 * and measured there by a script inside it.
 * Skipped, saying why, where Chromium is not installed ({@code .ci/run} installs Debian's
 * {@code chromium}). The pages and their screenshots are left in target/html-in-browser.
 */
class HtmlInBrowserTest {
    /** Measures the layout inside the page and writes it into the DOM, which --dump-dom then prints. */
    private static final String PROBE = """
            <script>window.addEventListener('load', () => {
              const d = document.body.dataset;
              d.scrollWidth = document.documentElement.scrollWidth;
              d.viewport = window.innerWidth;
              d.charts = document.querySelectorAll('svg').length;
              d.spreads = document.querySelectorAll('svg .spread').length;
              let smallest = 1000;
              for (const svg of document.querySelectorAll('svg')) {
                const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                for (const t of svg.querySelectorAll('text')) {
                  smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * scale);
                }
              }
              d.smallestChartFont = smallest.toFixed(1);
              let wrappedPre = 0;
              for (const pre of document.querySelectorAll('pre')) {
                const s = getComputedStyle(pre);
                const lines = pre.textContent.replace(/\\n$/, '').split('\\n').length;
                const height = pre.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
                if (Math.round(height / parseFloat(s.lineHeight)) > lines) wrappedPre++;
              }
              d.wrappedPre = wrappedPre;
              const broken = [];
              for (const el of document.querySelectorAll('h1, h2, p, li, td, th')) {
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node; (node = walker.nextNode());) {
                  for (const m of node.textContent.matchAll(/[A-Za-z]{2,30}/g)) {
                    const r = document.createRange();
                    r.setStart(node, m.index);
                    r.setEnd(node, m.index + m[0].length);
                    const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
                    if (tops.size > 1) broken.push(m[0]);
                  }
                }
              }
              d.brokenWords = broken.length ? broken.join(' ') : 'none';
            });</script>
            """;

    private static String chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    @ParameterizedTest(name = "{0} px wide")
    @ValueSource(ints = {390, 1280})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void theReportReadsAtThisWidth(int width) throws Exception {
        String chromium = chromium();
        Assumptions.assumeTrue(chromium != null,
                "Chromium is not installed (apt-get install chromium; .ci/run does it): the in-browser check of the HTML report is skipped");
        Path dir = Path.of("target", "html-in-browser").toAbsolutePath();
        Files.createDirectories(dir);
        Path page = dir.resolve("lab.html");
        String html = HtmlReport.render(LabReportsTest.sample(), true);
        Files.writeString(page, html.replace("</body>", PROBE + "</body>"), StandardCharsets.UTF_8);
        Path frame = dir.resolve("at-" + width + ".html");
        Files.writeString(frame, "<!DOCTYPE html><html><body style=\"margin:0\"><iframe src=\"lab.html\" style=\"border:0;width:"
                + width + "px;height:3000px\"></iframe></body></html>", StandardCharsets.UTF_8);
        int window = Math.max(width, 600);

        run(chromium, window, "--screenshot=" + dir.resolve("lab-" + width + ".png"), frame.toUri().toString());
        String dom = run(chromium, window, "--dump-dom", frameDumper(dir, width).toUri().toString());
        assertTrue(dom.contains("data-broken-words="), "the probe ran in the browser: "
                + dom.substring(0, Math.min(600, dom.length())));
        int scrollWidth = Integer.parseInt(attribute(dom, "scroll-width"));
        int viewport = Integer.parseInt(attribute(dom, "viewport"));
        assertEquals(width, viewport, "laid out at the width asked for");
        assertTrue(scrollWidth <= viewport, "the page does not scroll sideways: content " + scrollWidth + " px wide in a "
                + viewport + " px viewport");
        assertTrue(Integer.parseInt(attribute(dom, "charts")) >= 4, "every chart drawn: " + attribute(dom, "charts"));
        assertEquals("2", attribute(dom, "spreads"), "the throughput bars show the runs' spread");
        double smallest = Double.parseDouble(attribute(dom, "smallest-chart-font"));
        assertTrue(smallest >= 9, "chart text stays readable: its smallest is " + smallest + " px");
        assertEquals("0", attribute(dom, "wrapped-pre"), "preformatted tables keep their lines (they scroll instead)");
        assertEquals("none", attribute(dom, "broken-words"), "no word breaks in the middle");
    }

    private static String attribute(String dom, String name) {
        Matcher m = Pattern.compile("data-" + name + "=\"([^\"]*)\"").matcher(dom);
        assertTrue(m.find(), "the probe wrote data-" + name);
        return m.group(1);
    }

    /**
     * A host page whose script copies the framed page's measurements out of the iframe (same
     * directory, file URLs: allowed with --allow-file-access-from-files) into its own body.
     */
    private static Path frameDumper(Path dir, int width) throws Exception {
        Path host = dir.resolve("measure-" + width + ".html");
        Files.writeString(host, "<!DOCTYPE html><html><body style=\"margin:0\"><iframe id=\"f\" src=\"lab.html\" style=\"border:0;width:"
                + width + "px;height:3000px\"></iframe><script>document.getElementById('f').addEventListener('load', e => {"
                + "const src = e.target.contentDocument.body.dataset;"
                + "setTimeout(() => { for (const k in src) document.body.dataset[k] = src[k]; }, 0);});</script></body></html>",
                StandardCharsets.UTF_8);
        return host;
    }

    private static String run(String chromium, int window, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--hide-scrollbars", "--allow-file-access-from-files", "--window-size=" + window + ",3000",
                "--virtual-time-budget=3000"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "chromium finished");
        return out;
    }
}
