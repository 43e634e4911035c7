package io.jasyncio.lab.experiments;

import java.util.List;

/** A picture of some measurements, drawn as inline SVG in the HTML report. */
public sealed interface Chart {
    String title();

    /**
     * Curves over a shared x axis (e.g. heap size over time), drawn as {@code shape} says; with
     * {@code logY} the y axis is logarithmic, so 5 and 800 are both visible (values below 0.1 show as 0.1).
     */
    record Lines(String title, String xLabel, String yLabel, List<Series> series, Shape shape, boolean logY)
            implements Chart {
        public Lines(String title, String xLabel, String yLabel, List<Series> series) {
            this(title, xLabel, yLabel, series, Shape.LINE, false);
        }

        /** {@code stepped}: each y[i] holds over the interval that ends at x[i] (the gap before a heartbeat). */
        public Lines(String title, String xLabel, String yLabel, List<Series> series, boolean stepped) {
            this(title, xLabel, yLabel, series, stepped ? Shape.HELD_BEFORE : Shape.LINE, false);
        }

        public boolean stepped() {
            return shape != Shape.LINE;
        }
    }

    /** How a curve joins its points. */
    enum Shape {
        /** Straight segments between points. */
        LINE,
        /** y[i] held over the interval that ends at x[i] (a gap measured when it ended). */
        HELD_BEFORE,
        /** y[i] held from x[i] until the next point, then a vertical step (a heap size until the next change). */
        HELD_AFTER
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

    /**
     * One series of bars: {@code values} per category, and where they come from several runs, the
     * lowest and highest run of each ({@code low}, {@code high}; null when there is one run),
     * drawn as a whisker so a reader sees the spread a verdict was judged against.
     */
    record BarSeries(String name, double[] values, double[] low, double[] high) {
        public BarSeries(String name, double[] values) {
            this(name, values, null, null);
        }

        public BarSeries {
            if ((low == null) != (high == null) || low != null && (low.length != values.length || high.length != values.length)) {
                throw new IllegalArgumentException("low and high: both or neither, one per value");
            }
        }
    }
}
