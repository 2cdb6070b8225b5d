package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PointSummaryTest {
    @Test
    void shouldReduceRepeatsToMedianMinAndMaxAndCompareWocOnWithStockAtTheSamePoint() {
        List<PointResult> results = List.of(
            result(BenchSystem.STORM, 1, 100_000, 10), result(BenchSystem.WOC, 1, 260_000, 12),
            result(BenchSystem.STORM, 2, 120_000, 14), result(BenchSystem.WOC, 2, 200_000, 30),
            result(BenchSystem.STORM, 3, 90_000, 9), result(BenchSystem.WOC, 3, 240_000, 18));

        List<PointSummary> summary = PointSummary.of(results);

        assertEquals(2, summary.size());
        PointSummary stock = summary.get(0);
        assertEquals(new Spread(100_000, 90_000, 120_000, 3), stock.deliveriesPerSecond());
        assertEquals(3, stock.repeats());
        List<String> comparisons = PointSummary.comparisons(summary);
        assertEquals(1, comparisons.size());
        assertTrue(comparisons.get(0).contains("deliveries/s x2.40, p50 x1.00, p99 x1.80"), comparisons.get(0));
    }

    @Test
    void shouldCompareEachRelayTreeWithSequentialWocIncludingTheWireBytesPerBroadcast() {
        List<PointSummary> summary = PointSummary.of(List.of(result(BenchSystem.WOC, 1, 100_000, 20),
            result(BenchSystem.WOC_NONBLOCK, 1, 250_000, 10), result(BenchSystem.WOC_NONBLOCK_D2, 1, 200_000, 5)));

        List<String> comparisons = PointSummary.comparisons(summary);

        assertEquals(2, comparisons.size(), comparisons.toString());
        assertTrue(comparisons.get(0).contains("Whale-WOC-Nonblock d*=2 / W=2 Whale-WOC — deliveries/s x2.00, p50 x1.00, p99 x0.25"
            + " (medians of 1 and 1), wire bytes per broadcast x0.50"), comparisons.get(0));
        assertTrue(comparisons.get(1).contains("deliveries/s x2.50") && comparisons.get(1).contains("wire bytes per broadcast x0.40"),
            comparisons.get(1));
    }

    private static PointResult result(BenchSystem system, int repeat, double deliveries, double p99) {
        BenchPoint point = new BenchPoint(64, 2, system, "netty", WaitSetting.DEFAULT, 0, repeat, List.of(), 0,
            new BenchPoint.Dimensions(false, false, true));
        return new PointResult(64, 2, system.option(), "netty", "default", 0, repeat, false, point.label(), deliveries / 64,
            deliveries, 0, 64, 10, 100, 1, p99, p99 * 2, 1000, 2, 30, "t", 1.0, null, null, null, List.of(), Map.of(), 1.0, 2.0, 1e7 / deliveries, List.of());
    }
}
