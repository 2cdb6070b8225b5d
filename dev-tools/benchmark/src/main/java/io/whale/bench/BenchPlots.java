package io.whale.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per figure, x = matchers P, one series per run label (W, system, transport, wait) and the one-worker
 * ceiling; each point is the median of its repeats (the spread is in the table and results.json). And
 * {@code utilisation.png}: per point, the machine's CPU and the spout's host's link in percent of their capacity, which
 * says which of the two bound it.
 */
final class BenchPlots {
    private BenchPlots() {
    }

    /** {@code linkMbit}: the emulated hosts' link rate, 0 on loopback (then only the CPU is drawn). */
    static void write(List<PointSummary> results, int linkMbit, Path dir) throws IOException {
        plot(results, dir, "deliveries", "Deliveries per second", "deliveries/s", false, s -> s.deliveriesPerSecond().median());
        plot(results, dir, "cpu-per-tuple", "CPU time of the source worker per emitted tuple", "µs per emitted tuple", true,
            s -> s.sourceCpuMicrosPerTuple().median());
        plot(results, dir, "wire-bytes-per-tuple", "Bytes on the wire (loopback) per emitted tuple", "bytes per emitted tuple",
            false, s -> s.wireBytesPerTuple().median());
        plot(results, dir, "p99-latency", "End-to-end latency, 99th percentile", "p99 latency (ms)", true,
            s -> s.p99Millis().median());
        utilisation(results, linkMbit, dir);
    }

    private static void utilisation(List<PointSummary> results, int linkMbit, Path dir) throws IOException {
        if (results.isEmpty()) {
            return;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(600)
            .title("What bounds each point: the machine's CPU and the spout's host's link").yAxisTitle("percent of capacity").build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setXAxisLabelRotation(20);
        chart.getStyler().setYAxisMin(0.0);
        List<String> points = results.stream().map(r -> r.label() + " P=" + r.matchers()).toList();
        chart.addSeries("CPU (" + cores + " cores)", points, results.stream().map(r -> (Number) (100 * r.machineCoresBusy().median() / cores)).toList());
        if (linkMbit > 0) {
            chart.addSeries("spout host's link (" + linkMbit + " Mbit/s)", points,
                results.stream().map(r -> (Number) (100 * r.sourceLinkMbit().median() / linkMbit)).toList());
        }
        BitmapEncoder.saveBitmap(chart, dir.resolve("utilisation.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static void plot(List<PointSummary> results, Path dir, String file, String title, String yTitle, boolean logY,
                             ToDoubleFunction<PointSummary> y) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle("matchers P (all grouping)")
            .yAxisTitle(yTitle).build();
        chart.getStyler().setYAxisLogarithmic(logY && results.stream().mapToDouble(y).filter(Double::isFinite).allMatch(v -> v > 0));
        chart.getStyler().setXAxisDecimalPattern("#");
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        Map<String, List<PointSummary>> series = new LinkedHashMap<>();
        // A point that emitted nothing in its window has no per-tuple figure (infinite); it is in the table, not here.
        results.stream().filter(r -> Double.isFinite(y.applyAsDouble(r)))
            .forEach(r -> series.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r));
        if (series.isEmpty()) {
            return;
        }
        series.forEach((label, points) -> chart.addSeries(label, points.stream().mapToDouble(PointSummary::matchers).toArray(),
            points.stream().mapToDouble(y).toArray()).setMarker(SeriesMarkers.CIRCLE));
        BitmapEncoder.saveBitmap(chart, dir.resolve(file + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
