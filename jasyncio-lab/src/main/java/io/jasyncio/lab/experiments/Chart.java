package io.jasyncio.lab.experiments;

import java.util.List;

/** A picture of some measurements, drawn as inline SVG in the HTML report. */
public sealed interface Chart {
    String title();

    /**
     * Curves over a shared x axis (e.g. heap size over time). When {@code stepped}, each y[i] is
     * drawn as holding over the interval that ends at x[i] (e.g. the gap before a heartbeat).
     */
    record Lines(String title, String xLabel, String yLabel, List<Series> series, boolean stepped) implements Chart {
        public Lines(String title, String xLabel, String yLabel, List<Series> series) {
            this(title, xLabel, yLabel, series, false);
        }
    }

    /** One curve: points (x[i], y[i]). */
    record Series(String name, double[] x, double[] y) {
    }

    /** Distributions of samples on a logarithmic x axis (e.g. request latencies in ms). */
    record Histogram(String title, String xLabel, List<Samples> samples) implements Chart {
    }

    /** One named set of samples. */
    record Samples(String name, double[] values) {
    }

    /** Grouped bars: one group per category, one bar per series (values[i] for category i). */
    record Bars(String title, String yLabel, List<String> categories, List<BarSeries> series) implements Chart {
    }

    record BarSeries(String name, double[] values) {
    }
}
