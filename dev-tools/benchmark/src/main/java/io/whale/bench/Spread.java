package io.whale.bench;

import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The median, minimum and maximum of a figure over repeats (values that were not measured, NaN, left out): how both
 * drivers report a figure measured more than once.
 */
public record Spread(double median, double min, double max, int n) {
    public static <T> Spread of(List<T> repeats, ToDoubleFunction<T> figure) {
        double[] v = repeats.stream().filter(Objects::nonNull).mapToDouble(figure).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return new Spread(median, v[0], v[v.length - 1], v.length);
    }

    public boolean measured() {
        return n > 0;
    }

    /** {@code median [min–max]}, or the median alone for one repeat; {@code –} when nothing was measured. */
    public String format(String pattern) {
        if (n == 0) {
            return "–";
        }
        String m = String.format(pattern, median);
        return n == 1 ? m : m + " [" + String.format(pattern, min) + "–" + String.format(pattern, max) + "]";
    }
}
