package io.jasyncio.lab.report;

import io.jasyncio.lab.experiments.Chart;

import java.util.List;
import java.util.Locale;

/** Draws the lab's charts as inline SVG: no scripts, no external files. */
final class SvgCharts {
    private static final int WIDTH = 760;
    private static final int HEIGHT = 300;
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;
    private static final String[] COLORS = {"#d1495b", "#00798c", "#edae49", "#30638e", "#66a182"};

    private SvgCharts() {
    }

    static String render(Chart chart) {
        return switch (chart) {
            case Chart.Lines lines -> lines(lines);
            case Chart.Histogram histogram -> histogram(histogram);
            case Chart.Bars bars -> bars(bars);
        };
    }

    // ---- line charts --------------------------------------------------------------------------

    /** Values below this show at it on a log y axis (0 and sub-0.1 ms gaps alike). */
    private static final double LOG_FLOOR = 0.1;

    private static String lines(Chart.Lines c) {
        double xMin = Double.MAX_VALUE;
        double xMax = -Double.MAX_VALUE;
        double yMax = 0;
        for (Chart.Series s : c.series()) {
            for (int i = 0; i < s.x().length; i++) {
                xMin = Math.min(xMin, s.x()[i]);
                xMax = Math.max(xMax, s.x()[i]);
                yMax = Math.max(yMax, s.y()[i]);
            }
        }
        if (xMin > xMax) {
            xMin = 0;
            xMax = 1;
        }
        if (xMax == xMin) {
            xMax = xMin + 1;
        }
        StringBuilder s = open(c.title());
        Axes axes;
        if (c.logY()) {
            double top = Math.max(Math.log10(LOG_FLOOR) + 1, Math.ceil(Math.log10(Math.max(yMax, LOG_FLOOR))));
            axes = new Axes(xMin, xMax, Math.log10(LOG_FLOOR), top);
            axes.drawX(s, c.xLabel(), false);
            axes.drawLogY(s, c.yLabel());
        } else {
            axes = new Axes(xMin, xMax, 0, niceCeiling(yMax));
            axes.draw(s, c.xLabel(), c.yLabel(), false);
        }
        int color = 0;
        for (Chart.Series series : c.series()) {
            String stroke = COLORS[color++ % COLORS.length];
            double[] x = series.x();
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                y[i] = c.logY() ? Math.log10(Math.max(series.y()[i], LOG_FLOOR)) : series.y()[i];
            }
            s.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"").append(stroke).append("\" points=\"");
            for (int i = 0; i < x.length; i++) {
                if (c.shape() == Chart.Shape.HELD_BEFORE) { // the value held since the previous point
                    double from = i == 0 ? Math.max(xMin, x[0] - series.y()[0]) : x[i - 1];
                    s.append(fmt(axes.px(from))).append(',').append(fmt(axes.py(y[i]))).append(' ');
                } else if (c.shape() == Chart.Shape.HELD_AFTER && i > 0) { // the previous value held until now
                    s.append(fmt(axes.px(x[i]))).append(',').append(fmt(axes.py(y[i - 1]))).append(' ');
                }
                s.append(fmt(axes.px(x[i]))).append(',').append(fmt(axes.py(y[i]))).append(' ');
            }
            s.append("\"/>\n");
            if (c.shape() != Chart.Shape.HELD_BEFORE && x.length <= 40) {
                for (int i = 0; i < x.length; i++) {
                    s.append(String.format(Locale.ROOT, "<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\"/>%n",
                            fmt(axes.px(x[i])), fmt(axes.py(y[i])), stroke));
                }
            }
        }
        legend(s, c.series().stream().map(Chart.Series::name).toList());
        return close(s);
    }

    // ---- histograms (log x) ----------------------------------------------------------------------

    private static final int BUCKETS_PER_DECADE = 5;

    private static String histogram(Chart.Histogram c) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Chart.Samples s : c.samples()) {
            for (double v : s.values()) {
                if (v > 0) {
                    lo = Math.min(lo, v);
                }
                hi = Math.max(hi, v);
            }
        }
        if (hi <= 0) {
            lo = 0.1;
            hi = 1;
        }
        double firstDecade = Math.floor(Math.log10(lo));
        double lastDecade = Math.ceil(Math.log10(hi));
        if (lastDecade <= firstDecade) {
            lastDecade = firstDecade + 1;
        }
        int buckets = (int) ((lastDecade - firstDecade) * BUCKETS_PER_DECADE);
        double[][] share = new double[c.samples().size()][buckets];
        double yMax = 0;
        for (int k = 0; k < c.samples().size(); k++) {
            double[] values = c.samples().get(k).values();
            for (double v : values) {
                double pos = (Math.log10(Math.max(v, Math.pow(10, firstDecade))) - firstDecade) * BUCKETS_PER_DECADE;
                int b = Math.min(buckets - 1, Math.max(0, (int) pos));
                share[k][b] += 100.0 / values.length;
            }
            for (double p : share[k]) {
                yMax = Math.max(yMax, p);
            }
        }
        yMax = niceCeiling(yMax);
        StringBuilder s = open(c.title());
        Axes axes = new Axes(firstDecade, lastDecade, 0, yMax);
        axes.draw(s, c.xLabel(), "% of requests", true);
        double bucketWidth = (axes.px(lastDecade) - axes.px(firstDecade)) / buckets;
        double barWidth = bucketWidth / c.samples().size();
        for (int k = 0; k < share.length; k++) {
            String fill = COLORS[k % COLORS.length];
            for (int b = 0; b < buckets; b++) {
                if (share[k][b] <= 0) {
                    continue;
                }
                double x = axes.px(firstDecade) + b * bucketWidth + k * barWidth;
                double y = axes.py(share[k][b]);
                s.append(String.format(Locale.ROOT,
                        "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\" opacity=\"0.85\"/>%n",
                        fmt(x), fmt(y), fmt(Math.max(1, barWidth - 1)), fmt(axes.py(0) - y), fill));
            }
        }
        for (int k = 0; k < c.samples().size(); k++) { // p50 and p99 of each set, as dashed verticals
            double[] sorted = c.samples().get(k).values().clone();
            java.util.Arrays.sort(sorted);
            if (sorted.length == 0) {
                continue;
            }
            String stroke = COLORS[k % COLORS.length];
            String[] names = {"p50", "p99"};
            double[] at = {percentile(sorted, 50), percentile(sorted, 99)};
            for (int m = 0; m < 2; m++) {
                double x = axes.px(Math.min(lastDecade, Math.max(firstDecade, Math.log10(Math.max(at[m], 1e-9)))));
                double labelY = TOP + 14 + (k * 2 + m) * 12;
                s.append(String.format(Locale.ROOT,
                        "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"4 3\" class=\"marker\"/>"
                                + "<text x=\"%s\" y=\"%s\" class=\"small\" fill=\"%s\">%s %s</text>%n",
                        fmt(x), TOP, fmt(x), HEIGHT - BOTTOM, stroke, fmt(x + 3), fmt(labelY), stroke, names[m],
                        shortNumber(at[m])));
            }
        }
        legend(s, c.samples().stream().map(Chart.Samples::name).toList());
        return close(s);
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    // ---- grouped bars ---------------------------------------------------------------------------

    private static String bars(Chart.Bars c) {
        double yMax = 0;
        for (Chart.BarSeries series : c.series()) {
            for (double v : series.high() != null ? series.high() : series.values()) {
                yMax = Math.max(yMax, v);
            }
            for (double v : series.values()) {
                yMax = Math.max(yMax, v);
            }
        }
        yMax = niceCeiling(yMax);
        StringBuilder s = open(c.title());
        Axes axes = new Axes(0, c.categories().size(), 0, yMax);
        axes.drawY(s, c.yLabel());
        double groupWidth = (axes.px(c.categories().size()) - axes.px(0)) / c.categories().size();
        double barWidth = groupWidth * 0.7 / Math.max(1, c.series().size());
        for (int g = 0; g < c.categories().size(); g++) {
            double groupX = axes.px(g) + groupWidth * 0.15;
            for (int k = 0; k < c.series().size(); k++) {
                Chart.BarSeries series = c.series().get(k);
                double v = series.values()[g];
                double x = groupX + k * barWidth;
                double mid = x + barWidth / 2 - 1;
                s.append(String.format(Locale.ROOT, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"%s\"/>%n",
                        fmt(x), fmt(axes.py(v)), fmt(barWidth - 2), fmt(axes.py(0) - axes.py(v)),
                        COLORS[k % COLORS.length]));
                double labelAbove = v;
                if (series.low() != null) { // the runs' spread: a whisker from the lowest to the highest
                    double lo = axes.py(series.low()[g]);
                    double hi = axes.py(series.high()[g]);
                    double cap = Math.min(8, barWidth / 4);
                    s.append(String.format(Locale.ROOT, "<path class=\"spread\" d=\"M%s %sV%sM%s %sH%sM%s %sH%s\">"
                                    + "<title>lowest %s, highest %s</title></path>%n",
                            fmt(mid), fmt(lo), fmt(hi), fmt(mid - cap), fmt(lo), fmt(mid + cap), fmt(mid - cap), fmt(hi),
                            fmt(mid + cap), shortNumber(series.low()[g]), shortNumber(series.high()[g])));
                    labelAbove = Math.max(v, series.high()[g]);
                }
                s.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" class=\"small\">%s</text>%n",
                        fmt(mid), fmt(axes.py(labelAbove) - 4), shortNumber(v)));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    fmt(axes.px(g) + groupWidth / 2), HEIGHT - BOTTOM + 20, HtmlReport.escape(c.categories().get(g))));
        }
        legend(s, c.series().stream().map(Chart.BarSeries::name).toList());
        return close(s);
    }

    // ---- shared pieces --------------------------------------------------------------------------

    /** Maps data coordinates to the plot area and draws its axes. */
    private record Axes(double xMin, double xMax, double yMin, double yMax) {
        double px(double x) {
            return LEFT + (x - xMin) / (xMax - xMin) * (WIDTH - LEFT - RIGHT);
        }

        double py(double y) {
            return HEIGHT - BOTTOM - (y - yMin) / (yMax - yMin) * (HEIGHT - TOP - BOTTOM);
        }

        void draw(StringBuilder s, String xLabel, String yLabel, boolean logX) {
            drawY(s, yLabel);
            drawX(s, xLabel, logX);
        }

        /** A y axis in decades: yMin..yMax are powers of ten, labelled as the values they stand for. */
        void drawLogY(StringBuilder s, String yLabel) {
            axisLines(s);
            for (double d = Math.ceil(yMin); d <= yMax + 1e-9; d++) {
                s.append(String.format(Locale.ROOT,
                        "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" class=\"grid\"/><text x=\"%d\" y=\"%s\" text-anchor=\"end\" class=\"small\">%s</text>%n",
                        LEFT, fmt(py(d)), WIDTH - RIGHT, fmt(py(d)), LEFT - 6, fmt(py(d) + 4), shortNumber(Math.pow(10, d))));
            }
            yLabel(s, yLabel + " (log scale)");
        }

        void drawX(StringBuilder s, String xLabel, boolean logX) {
            if (logX) {
                for (double d = xMin; d <= xMax + 1e-9; d++) {
                    tickX(s, d, shortNumber(Math.pow(10, d)));
                }
            } else {
                double step = niceStep((xMax - xMin) / 6);
                for (double x = Math.ceil(xMin / step) * step; x <= xMax + 1e-9; x += step) {
                    tickX(s, x, shortNumber(x));
                }
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 10, HtmlReport.escape(xLabel)));
        }

        private void axisLines(StringBuilder s) {
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>%n",
                    LEFT, TOP, LEFT, HEIGHT - BOTTOM));
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>%n",
                    LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM));
        }

        private void yLabel(StringBuilder s, String yLabel) {
            s.append(String.format(Locale.ROOT,
                    "<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">%s</text>%n",
                    (TOP + HEIGHT - BOTTOM) / 2, (TOP + HEIGHT - BOTTOM) / 2, HtmlReport.escape(yLabel)));
        }

        void drawY(StringBuilder s, String yLabel) {
            axisLines(s);
            double step = niceStep((yMax - yMin) / 5);
            for (double y = yMin; y <= yMax + 1e-9; y += step) {
                s.append(String.format(Locale.ROOT,
                        "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" class=\"grid\"/><text x=\"%d\" y=\"%s\" text-anchor=\"end\" class=\"small\">%s</text>%n",
                        LEFT, fmt(py(y)), WIDTH - RIGHT, fmt(py(y)), LEFT - 6, fmt(py(y) + 4), shortNumber(y)));
            }
            yLabel(s, yLabel);
        }

        private void tickX(StringBuilder s, double x, String label) {
            s.append(String.format(Locale.ROOT,
                    "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" class=\"axis\"/><text x=\"%s\" y=\"%d\" text-anchor=\"middle\" class=\"small\">%s</text>%n",
                    fmt(px(x)), HEIGHT - BOTTOM, fmt(px(x)), HEIGHT - BOTTOM + 5, fmt(px(x)), HEIGHT - BOTTOM + 18, label));
        }
    }

    private static StringBuilder open(String title) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        s.append("<title>").append(HtmlReport.escape(title)).append("</title>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" class=\"title\">%s</text>%n", LEFT,
                HtmlReport.escape(title)));
        return s;
    }

    private static String close(StringBuilder s) {
        return s.append("</svg>\n").toString();
    }

    private static void legend(StringBuilder s, List<String> names) {
        int y = TOP + 4;
        for (int i = 0; i < names.size(); i++) {
            s.append(String.format(Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"small\">%s</text>%n",
                    WIDTH - RIGHT - 250, y, COLORS[i % COLORS.length], WIDTH - RIGHT - 232, y + 10,
                    HtmlReport.escape(names.get(i))));
            y += 18;
        }
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (raw <= 0 || Double.isNaN(raw)) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / power;
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
    }

    static double niceCeiling(double max) {
        if (max <= 0 || Double.isNaN(max)) {
            return 1;
        }
        double step = niceStep(max / 5);
        return Math.ceil(max * 1.05 / step) * step;
    }

    static String shortNumber(double v) {
        double a = Math.abs(v);
        if (a >= 1e6) {
            return shortNumber(v / 1e6) + "M";
        }
        if (a >= 1e4) {
            return shortNumber(v / 1e3) + "k";
        }
        if (a == Math.rint(a)) {
            return String.format(Locale.ROOT, "%d", (long) v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
