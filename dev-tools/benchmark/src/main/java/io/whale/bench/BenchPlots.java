package io.whale.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per figure, x = matchers P, one series per run label (W, system, transport, wait) and the one-worker
 * ceiling; each point is the median of its repeats (the spread is in the table and results.json).
 */
final class BenchPlots {
    private BenchPlots() {
    }

    static void write(List<PointSummary> results, Path dir) throws IOException {
        plot(results, dir, "deliveries", "Deliveries per second", "deliveries/s", false, s -> s.deliveriesPerSecond().median());
        plot(results, dir, "cpu-per-tuple", "CPU time of the source worker per emitted tuple", "µs per emitted tuple", true,
            s -> s.sourceCpuMicrosPerTuple().median());
        plot(results, dir, "wire-bytes-per-tuple", "Bytes on the wire (loopback) per emitted tuple", "bytes per emitted tuple",
            false, s -> s.wireBytesPerTuple().median());
        plot(results, dir, "p99-latency", "End-to-end latency, 99th percentile", "p99 latency (ms)", true,
            s -> s.p99Millis().median());
    }

    private static void plot(List<PointSummary> results, Path dir, String file, String title, String yTitle, boolean logY,
                             ToDoubleFunction<PointSummary> y) throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle("matchers P (all grouping)")
            .yAxisTitle(yTitle).build();
        chart.getStyler().setYAxisLogarithmic(logY && results.stream().allMatch(r -> y.applyAsDouble(r) > 0));
        chart.getStyler().setXAxisDecimalPattern("#");
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        Map<String, List<PointSummary>> series = new LinkedHashMap<>();
        results.forEach(r -> series.computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r));
        series.forEach((label, points) -> chart.addSeries(label, points.stream().mapToDouble(PointSummary::matchers).toArray(),
            points.stream().mapToDouble(y).toArray()).setMarker(SeriesMarkers.CIRCLE));
        BitmapEncoder.saveBitmap(chart, dir.resolve(file + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
