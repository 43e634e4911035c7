package io.jasyncio.lab.report;

import io.jasyncio.lab.experiments.Chart;
import io.jasyncio.lab.experiments.Check;
import io.jasyncio.lab.experiments.Result;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/** The lab's results as one self-contained HTML page, charts inline as SVG. */
public final class HtmlReport {
    private HtmlReport() {
    }

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
            h1 { margin-bottom: 0.2rem; }
            .meta { color: #666; }
            section { border-top: 1px solid #ddd; margin-top: 2rem; padding-top: 0.5rem; }
            .claim { font-style: italic; }
            pre { background: #f6f6f6; padding: 0.6rem; font-size: 0.8rem; line-height: 1.35; white-space: pre; overflow-x: auto; }
            p, li { overflow-wrap: break-word; }
            .scroll, .chart { overflow-x: auto; }
            .diagnosis { border-left: 4px solid #c62828; padding-left: 0.8rem; margin: 1rem 0; }
            .verdict { display: inline-block; white-space: nowrap; padding: 0.1rem 0.5rem; border-radius: 0.3rem; color: #fff; font-size: 0.9rem; }
            .holds { background: #2e7d32; } .does-not-hold { background: #c62828; } .skipped { background: #757575; }
            .inconclusive { background: #ef6c00; } li.unsure::marker { content: "?  "; color: #ef6c00; }
            li.ok::marker { content: "\\2714  "; color: #2e7d32; } li.no::marker { content: "\\2718  "; color: #c62828; }
            table { border-collapse: collapse; } td, th { padding: 0.2rem 0.8rem; text-align: left; } th { white-space: nowrap; }
            svg { display: block; margin: 1rem 0; width: 100%; min-width: 640px; max-width: 760px; height: auto; font-size: 12px; }
            svg .title { font-weight: bold; font-size: 13px; } svg .small { font-size: 11px; }
            svg .axis { stroke: #444; } svg .grid { stroke: #e4e4e4; } svg .spread { stroke: #222; stroke-width: 1.5; fill: none; }
            """;

    /**
     * A whole page: {@code body} under an {@code h1} of {@code title}, with the shared style and a
     * viewport tag, so it reads on a narrow screen too: text wraps between words (never inside
     * one), while preformatted tables, wide tables and charts keep their shape and scroll sideways
     * in their own box; a chart shrinks no further than 640 px, which keeps its smallest text at
     * about 9 px.
     */
    public static String page(String title, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + escape(title) + "</title>\n<style>\n" + STYLE + "</style>\n</head>\n<body>\n"
                + "<h1>" + escape(title) + "</h1>\n" + body + "</body>\n</html>\n";
    }

    /** The nearest-rank percentile {@code p} of sorted values (not empty). */
    public static double percentile(double[] sorted, double p) {
        return SvgCharts.percentile(sorted, p);
    }

    /** One chart as inline SVG, in a box that scrolls sideways where the screen is narrower than the chart. */
    public static String chart(Chart chart) {
        return "<div class=\"chart\">" + SvgCharts.render(chart) + "</div>\n";
    }

    public static String render(List<Result> results, boolean quick) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<p class=\"meta\">Measured %s on %s %s, %d CPUs, Java %s%s.</p>%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS), escape(System.getProperty("os.name")),
                escape(System.getProperty("os.arch")), Runtime.getRuntime().availableProcessors(),
                escape(System.getProperty("java.version")), quick ? " (quick mode: small sizes)" : ""));
        s.append("<div class=\"scroll\"><table>\n<tr><th>experiment</th><th>name (--only)</th><th>verdict</th></tr>\n");
        for (Result r : results) {
            s.append("<tr><td><a href=\"#").append(escape(r.name())).append("\">").append(escape(r.title()))
                    .append("</a></td><td>").append(escape(r.name())).append("</td><td>").append(badge(r))
                    .append("</td></tr>\n");
        }
        s.append("</table></div>\n");
        for (Result r : results) {
            section(s, r);
        }
        return page("jasyncio lab", s.toString());
    }

    private static void section(StringBuilder s, Result r) {
        s.append("<section id=\"").append(escape(r.name())).append("\">\n");
        s.append("<h2>").append(escape(r.title())).append(" ").append(badge(r)).append("</h2>\n");
        s.append("<p class=\"claim\">").append(escape(r.claim())).append("</p>\n");
        if (!r.report().isEmpty()) {
            s.append("<pre>");
            for (String line : r.report()) {
                s.append(escape(line)).append('\n');
            }
            s.append("</pre>\n");
        }
        s.append("<ul>\n");
        for (Check c : r.checks()) {
            s.append("<li class=\"").append(c.inconclusive() ? "unsure" : c.passed() ? "ok" : "no").append("\">").append(escape(c.expectation()))
                    .append(": ").append(escape(c.evidence())).append("</li>\n");
        }
        if (r.skipReason() != null) {
            s.append("<li>skipped because ").append(escape(r.skipReason())).append("</li>\n");
        }
        s.append("</ul>\n");
        for (Chart chart : r.charts()) {
            s.append(chart(chart));
        }
        s.append("</section>\n");
    }

    private static String badge(Result r) {
        String label = r.verdict().label();
        return "<span class=\"verdict " + label.replace(' ', '-') + "\">" + escape(label) + "</span>";
    }

    public static String escape(String text) {
        StringBuilder s = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> s.append("&lt;");
                case '>' -> s.append("&gt;");
                case '&' -> s.append("&amp;");
                case '"' -> s.append("&quot;");
                default -> s.append(c);
            }
        }
        return s.toString();
    }
}
