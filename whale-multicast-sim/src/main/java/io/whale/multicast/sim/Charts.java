package io.whale.multicast.sim;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Small XChart helpers shared by the scenarios. */
final class Charts {
    private Charts() {
    }

    static XYChart chart(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(1000).height(560).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(6);
        chart.getStyler().setXAxisDecimalPattern("#0.##");
        return chart;
    }

    static XYSeries line(XYChart chart, String name, double[] x, double[] y) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        return series;
    }

    static XYSeries points(XYChart chart, String name, double[] x, double[] y) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.CIRCLE);
        return series;
    }

    static void save(XYChart chart, Path file) {
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
