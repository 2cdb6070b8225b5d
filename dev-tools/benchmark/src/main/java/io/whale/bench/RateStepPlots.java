package io.whale.bench;

import io.whale.examples.smoke.RateSchedule;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The rate-step run's figures (the paper's Fig. 23/24 shape): orders delivered to every matcher per second against
 * the offered rate, and the p99 latency, over the seconds since the first step, one series per system, and where a run
 * has them its results and mean latency in 100-ms bins beside; each tree switch is a vertical line labelled with the
 * run's number and its new d*.
 */
public final class RateStepPlots {
    private static final float SECONDS_LINE = 2.5f;
    private static final float BIN_LINE = 0.6f;

    private RateStepPlots() {
    }

    /** {@code linkMbit}: the emulated hosts' link rate, 0 when unshaped (then only the CPU is drawn against its capacity). */
    static void write(List<RateStepRun> runs, RateSchedule schedule, int linkMbit, Path dir) throws IOException {
        XYChart throughput = throughput("Throughput as the offered rate steps", "orders delivered to every matcher per second", runs,
            schedule);
        BitmapEncoder.saveBitmap(throughput, dir.resolve("rate-step-throughput.png").toString(), BitmapEncoder.BitmapFormat.PNG);
        XYChart latency = latency("End-to-end latency as the offered rate steps", runs);
        BitmapEncoder.saveBitmap(latency, dir.resolve("rate-step-latency.png").toString(), BitmapEncoder.BitmapFormat.PNG);

        int cores = Runtime.getRuntime().availableProcessors();
        XYChart use = chart("What bounds it: the machine's CPU and the spout's host's link", "percent of capacity");
        series(use, runs, " CPU (" + cores + " cores)", s -> 100 * s.cpuCoresBusy() / cores);
        if (linkMbit > 0) {
            series(use, runs, " spout host's link (" + linkMbit + " Mbit/s)", s -> 100 * s.sourceLinkMbit() / linkMbit);
        }
        marks(use, runs, 100);
        BitmapEncoder.saveBitmap(use, dir.resolve("rate-step-utilisation.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** What was delivered per second against the offered rate, one series per run, each tree switch marked. */
    public static XYChart throughput(String title, String yTitle, List<RateStepRun> runs, RateSchedule schedule) {
        XYChart throughput = chart(title, yTitle);
        List<double[]> offered = offered(schedule);
        throughput.addSeries("offered rate", offered.get(0), offered.get(1)).setMarker(SeriesMarkers.NONE);
        bins(throughput, runs, ", per 100 ms", RateStepBin::resultsPerSecond);
        series(throughput, runs, "", RateStepSample::broadcastsPerSecond);
        marks(throughput, runs, max(offered.get(1), runs, RateStepSample::broadcastsPerSecond));
        return throughput;
    }

    /** Each interval's median and 99th percentile latency, one pair of series per run, each tree switch marked. */
    public static XYChart latency(String title, List<RateStepRun> runs) {
        XYChart latency = chart(title, "latency per interval (ms)");
        latency.getStyler().setYAxisLogarithmic(runs.stream().flatMap(r -> r.samples().stream()).allMatch(s -> s.p50Millis() > 0));
        // Drawn where positive: the axis may be logarithmic.
        bins(latency, runs, " mean per 100 ms", b -> b.meanLatencyMillis() > 0 ? b.meanLatencyMillis() : Double.NaN);
        series(latency, runs, " p99", RateStepSample::p99Millis);
        series(latency, runs, " p50", RateStepSample::p50Millis);
        marks(latency, runs, max(new double[0], runs, RateStepSample::p99Millis));
        return latency;
    }

    private static XYChart chart(String title, String yTitle) {
        XYChart chart = new XYChartBuilder().width(1000).height(560).title(title).xAxisTitle("seconds since the first step")
            .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setXAxisDecimalPattern("#");
        return chart;
    }

    private static void series(XYChart chart, List<RateStepRun> runs, String suffix, ToDoubleFunction<RateStepSample> y) {
        lines(chart, runs, suffix, RateStepRun::samples, RateStepSample::atSeconds, y, SECONDS_LINE);
    }

    /**
     * Each run's 100-ms bins, thin and beneath the one-second series: at a hundred results a second a bin holds about
     * ten, so the bins swing widely.
     */
    private static void bins(XYChart chart, List<RateStepRun> runs, String suffix, ToDoubleFunction<RateStepBin> y) {
        lines(chart, runs, suffix, RateStepRun::bins, RateStepBin::atSeconds, y, BIN_LINE);
    }

    /** One line per run through its points that have a value (a bin without results has no latency). */
    private static <T> void lines(XYChart chart, List<RateStepRun> runs, String suffix, Function<RateStepRun, List<T>> points,
                                  ToDoubleFunction<T> x, ToDoubleFunction<T> y, float width) {
        for (int i = 0; i < runs.size(); i++) {
            List<T> drawn = points.apply(runs.get(i)).stream().filter(p -> !Double.isNaN(y.applyAsDouble(p))).toList();
            if (!drawn.isEmpty()) {
                chart.addSeries((i + 1) + ": " + runs.get(i).label() + suffix, drawn.stream().mapToDouble(x).toArray(),
                    drawn.stream().mapToDouble(y).toArray()).setMarker(SeriesMarkers.NONE).setLineWidth(width);
            }
        }
    }

    /** A vertical line at each switch's flip, labelled "RUN: d* TO". */
    private static void marks(XYChart chart, List<RateStepRun> runs, double top) {
        for (int i = 0; i < runs.size(); i++) {
            long origin = runs.get(i).originMillis();
            for (ScheduleEvent e : runs.get(i).events()) {
                if (e.kind() == ScheduleEvent.Kind.SWITCH) {
                    double at = (e.epochMillis() - origin) / 1e3;
                    chart.addAnnotation(new AnnotationLine(at, true, false));
                    chart.addAnnotation(new AnnotationText((i + 1) + ": d* " + e.switched().to(), at, top, false));
                }
            }
        }
    }

    /** The offered rate as a step function: {x, y}. */
    private static List<double[]> offered(RateSchedule schedule) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (int step = 0; step < schedule.steps(); step++) {
            double from = schedule.stepStartNanos(step) / 1e9;
            double to = (step + 1 < schedule.steps() ? schedule.stepStartNanos(step + 1) : schedule.lengthNanos()) / 1e9;
            x.addAll(List.of(from, to));
            y.addAll(List.of((double) schedule.rate(step), (double) schedule.rate(step)));
        }
        return List.of(x.stream().mapToDouble(Double::doubleValue).toArray(), y.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static double max(double[] values, List<RateStepRun> runs, ToDoubleFunction<RateStepSample> y) {
        double max = 0;
        for (double v : values) {
            max = Math.max(max, v);
        }
        for (RateStepRun run : runs) {
            max = Math.max(max, run.samples().stream().mapToDouble(y).max().orElse(0));
        }
        return max;
    }
}
