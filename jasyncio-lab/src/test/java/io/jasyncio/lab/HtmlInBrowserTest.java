package io.jasyncio.lab;

import io.jasyncio.lab.report.HtmlReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTML report in a real browser: headless Chromium at a narrow width (asked for 390 px, it
 * gives its minimum, 500) must lay the
 * page out with no horizontal scrolling and draw every chart. Skipped, saying why, where Chromium
 * is not installed (the OS package {@code chromium}). The page is left in target/html-in-browser;
 * to look at it: {@code chromium --headless --screenshot=lab.png --window-size=390,2400 lab.html}.
 */
class HtmlInBrowserTest {
    private static final int PHONE_WIDTH = 390;

    /** Reports the layout into the DOM, which --dump-dom then prints. */
    private static final String PROBE = "<script>window.addEventListener('load', () => {"
            + "document.body.dataset.scrollWidth = document.documentElement.scrollWidth;"
            + "document.body.dataset.viewport = window.innerWidth;"
            + "document.body.dataset.charts = document.querySelectorAll('svg').length;});</script>\n";

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

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theReportFitsAPhoneScreenAndDrawsEveryChart() throws Exception {
        String chromium = chromium();
        Assumptions.assumeTrue(chromium != null,
                "Chromium is not installed (apt-get install chromium): the in-browser check of the HTML report is skipped");
        Path dir = Path.of("target", "html-in-browser");
        Files.createDirectories(dir);
        Path page = dir.resolve("lab.html").toAbsolutePath();
        String html = HtmlReport.render(LabReportsTest.sample(), true);
        Files.writeString(page, html.replace("</body>", PROBE + "</body>"), StandardCharsets.UTF_8);

        String dom = run(chromium, "--dump-dom", page.toUri().toString());
        Matcher m = Pattern.compile("data-scroll-width=\"(\\d+)\" data-viewport=\"(\\d+)\" data-charts=\"(\\d+)\"")
                .matcher(dom);
        assertTrue(m.find(), "the probe ran in the browser: " + dom.substring(0, Math.min(400, dom.length())));
        int scrollWidth = Integer.parseInt(m.group(1));
        int viewport = Integer.parseInt(m.group(2));
        // headless Chromium lays out no narrower than 500 px: still a narrow screen
        assertTrue(viewport <= 500, "the page was laid out at a narrow width: " + viewport);
        assertTrue(scrollWidth <= viewport, "no horizontal scrolling: content " + scrollWidth + " px wide in a "
                + viewport + " px viewport");
        assertTrue(Integer.parseInt(m.group(3)) >= 4, "every chart drawn: " + m.group(3));
    }

    private static String run(String chromium, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(chromium, "--headless", "--no-sandbox",
                "--disable-gpu", "--hide-scrollbars", "--window-size=" + PHONE_WIDTH + ",2400",
                "--virtual-time-budget=3000"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(50, TimeUnit.SECONDS), "chromium finished");
        return out;
    }
}
