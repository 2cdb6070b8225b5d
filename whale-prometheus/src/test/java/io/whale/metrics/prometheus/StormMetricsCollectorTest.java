package io.whale.metrics.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Gauge;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class StormMetricsCollectorTest {
    private WorkerRegistry worker;
    private StormMetricRegistry registry;
    private StormMetricsCollector collector;

    @BeforeEach
    void startWorkerRegistry() {
        worker = new WorkerRegistry();
        registry = worker.registry;
        collector = new StormMetricsCollector(registry);
    }

    @AfterEach
    void stopWorkerRegistry() {
        worker.close();
    }

    @Test
    void namesAreStormsShortNamesPrefixedAndSanitized() {
        assertEquals("storm_emit_count", StormMetricsCollector.name("__emit-count"));
        assertEquals("storm_woc_frames_sent", StormMetricsCollector.name("woc-frames-sent"));
        assertEquals("storm_receive_population", StormMetricsCollector.name("__receive.population"));
        assertEquals("storm_a_b", StormMetricsCollector.name("a..b--"));
        assertEquals("storm_x9", StormMetricsCollector.name("x9"));
    }

    @Test
    void aCounterCarriesTheTaskLabelsAndItsCount() throws Exception {
        registry.counter("__emit-count", "spout", 3).inc(5);

        CounterSnapshot family = family(collector.collect(), "storm_emit_count", CounterSnapshot.class);

        assertEquals(1, family.getDataPoints().size());
        CounterDataPointSnapshot point = family.getDataPoints().get(0);
        assertEquals(taskLabels("spout", 3), point.getLabels());
        assertEquals(5, point.getValue());
    }

    @Test
    void oneNameOfManyTasksAndStreamsIsOneFamilyWithAPointEach() throws Exception {
        registry.counter("__emit-count", "spout", 3).inc(1);
        registry.counter("__emit-count", "spout", 4).inc(2);
        registry.counter("__emit-count", WorkerRegistry.TOPOLOGY, "spout", 3, WorkerRegistry.WORKER_PORT, "default").inc(3);

        MetricSnapshots snapshots = collector.collect();

        assertEquals(1, snapshots.stream().filter(s -> s.getMetadata().getName().equals("storm_emit_count")).count());
        CounterSnapshot family = family(snapshots, "storm_emit_count", CounterSnapshot.class);
        assertEquals(3, family.getDataPoints().size());
        assertEquals(1, counter(snapshots, "storm_emit_count", taskLabels("spout", 3)));
        assertEquals(2, counter(snapshots, "storm_emit_count", taskLabels("spout", 4)));
        assertEquals(3, counter(snapshots, "storm_emit_count", taskLabels("spout", 3).add("stream", "default")));
    }

    @Test
    void aMeterIsACounterOfItsCount() throws Exception {
        registry.meter("__ack-count", worker.task("bolt", 7)).mark(4);

        assertEquals(4, counter(collector.collect(), "storm_ack_count", taskLabels("bolt", 7)));
    }

    @Test
    void numericAndBooleanGaugesAreGaugesAndOthersAreSkippedAndCounted() throws Exception {
        registry.gauge("queue-length", () -> 12.5, "bolt", 7);
        registry.gauge("overflowing", () -> true, "bolt", 7);
        registry.gauge("state", () -> "RUNNING", "bolt", 7);

        MetricSnapshots snapshots = collector.collect();

        Labels labels = taskLabels("bolt", 7);
        assertEquals(12.5, gauge(snapshots, "storm_queue_length", labels));
        assertEquals(1.0, gauge(snapshots, "storm_overflowing", labels));
        assertTrue(find(snapshots, "storm_state").isEmpty());
        assertEquals(1, collector.skipped(StormMetricsCollector.NOT_A_NUMBER));
    }

    @Test
    void aThrowingGaugeIsSkippedAndCountedOnEveryScrape() throws Exception {
        registry.gauge("broken", () -> {
            throw new IllegalStateException("no value");
        }, "bolt", 7);
        registry.gauge("fine", () -> 1, "bolt", 7);

        MetricSnapshots first = collector.collect();
        MetricSnapshots second = collector.collect();

        assertTrue(find(second, "storm_broken").isEmpty());
        assertEquals(1.0, gauge(second, "storm_fine", taskLabels("bolt", 7)));
        assertEquals(1, skippedPoint(first, StormMetricsCollector.GAUGE_FAILED).getValue());
        assertEquals(2, skippedPoint(second, StormMetricsCollector.GAUGE_FAILED).getValue());
        assertEquals(2, collector.skipped(StormMetricsCollector.GAUGE_FAILED));
    }

    @Test
    void everyReasonIsExposedFromTheFirstScrape() {
        CounterSnapshot skipped = family(collector.collect(), StormMetricsCollector.SKIPPED_METRICS, CounterSnapshot.class);

        assertEquals(List.of("duplicate", "gauge_failed", "name_clash", "negative_count", "not_a_number"),
            skipped.getDataPoints().stream().map(p -> p.getLabels().get(StormMetricsCollector.REASON)).sorted().toList());
        assertTrue(skipped.getDataPoints().stream().allMatch(p -> p.getValue() == 0));
    }

    @Test
    void aHistogramIsASummaryOfItsCountAndQuantiles() throws Exception {
        TopologyContext task = worker.task("bolt", 7);
        com.codahale.metrics.Histogram histogram = registry.histogram("batch-size", task);
        for (int value = 1; value <= 100; value++) {
            histogram.update(value);
        }

        SummaryDataPointSnapshot point = summary(collector.collect(), "storm_batch_size", taskLabels("bolt", 7));

        assertEquals(100, point.getCount());
        assertEquals(List.of(0.5, 0.75, 0.95, 0.99), quantiles(point));
        assertEquals(50, point.getQuantiles().get(0).getValue(), 1.0);
        assertEquals(99, point.getQuantiles().get(3).getValue(), 1.0);
    }

    @Test
    void aTimerIsASummaryInSeconds() throws Exception {
        com.codahale.metrics.Timer timer = registry.timer("process", worker.task("bolt", 7));
        for (int i = 0; i < 3; i++) {
            timer.update(Duration.ofMillis(250));
        }

        MetricSnapshots snapshots = collector.collect();

        assertTrue(find(snapshots, "storm_process").isEmpty());
        SummaryDataPointSnapshot point = summary(snapshots, "storm_process_seconds", taskLabels("bolt", 7));
        assertEquals(3, point.getCount());
        for (Quantile quantile : point.getQuantiles()) {
            assertEquals(0.25, quantile.getValue(), 1e-9);
        }
    }

    @Test
    void oneNameOfTwoTypesKeepsTheFirstAndCountsTheRest() throws Exception {
        // A task's gauges reach the collector before its counters.
        registry.gauge("in-flight", () -> 3, "bolt", 7);
        registry.counter("in.flight", "bolt", 7).inc();

        MetricSnapshots snapshots = collector.collect();

        assertEquals(3.0, gauge(snapshots, "storm_in_flight", taskLabels("bolt", 7)));
        assertEquals(1, collector.skipped(StormMetricsCollector.NAME_CLASH));
    }

    @Test
    void aCounterWhoseSeriesAGaugeAlreadyExposesIsCountedAsAClash() throws Exception {
        registry.gauge("sent_total", () -> 8, "bolt", 7);
        registry.counter("sent", "bolt", 7).inc();

        MetricSnapshots snapshots = collector.collect();

        assertEquals(8.0, gauge(snapshots, "storm_sent_total", taskLabels("bolt", 7)));
        assertTrue(find(snapshots, "storm_sent").isEmpty());
        assertEquals(1, collector.skipped(StormMetricsCollector.NAME_CLASH));
    }

    @Test
    void twoStormMetricsWithOneNameAndLabelSetKeepTheFirstAndCountTheOther() throws Exception {
        registry.counter("a-b", "bolt", 7).inc(1);
        registry.counter("a_b", "bolt", 7).inc(2);

        CounterSnapshot family = family(collector.collect(), "storm_a_b", CounterSnapshot.class);

        assertEquals(1, family.getDataPoints().size());
        assertEquals(1, family.getDataPoints().get(0).getValue());
        assertEquals(1, collector.skipped(StormMetricsCollector.DUPLICATE));
    }

    @Test
    void aNegativeCounterIsSkippedAndCounted() throws Exception {
        registry.counter("balance", "bolt", 7).dec(2);

        assertFalse(find(collector.collect(), "storm_balance").isPresent());
        assertEquals(1, collector.skipped(StormMetricsCollector.NEGATIVE_COUNT));
    }

    @Test
    void aMetricRegisteredAfterAScrapeShowsOnTheNext() throws Exception {
        assertTrue(find(collector.collect(), "storm_late").isEmpty());
        Gauge<Integer> late = () -> 42;
        registry.gauge("late", late, "bolt", 7);

        assertEquals(42.0, gauge(collector.collect(), "storm_late", taskLabels("bolt", 7)));
    }

    static Labels taskLabels(String component, int task) throws Exception {
        return Labels.builder()
            .label("topology", WorkerRegistry.TOPOLOGY)
            .label("host", WorkerRegistry.host())
            .label("worker_port", Integer.toString(WorkerRegistry.WORKER_PORT))
            .label("component", component)
            .label("task", Integer.toString(task))
            .build();
    }

    private static Optional<MetricSnapshot> find(MetricSnapshots snapshots, String name) {
        return snapshots.stream().filter(s -> s.getMetadata().getName().equals(name)).findFirst();
    }

    private static <T extends MetricSnapshot> T family(MetricSnapshots snapshots, String name, Class<T> type) {
        return assertInstanceOf(type, find(snapshots, name).orElseThrow(() -> new AssertionError("no family " + name)));
    }

    private static <P extends DataPointSnapshot> P point(MetricSnapshot family, Labels labels, Class<P> type) {
        DataPointSnapshot point = family.getDataPoints().stream().filter(p -> p.getLabels().equals(labels)).findFirst()
            .orElseThrow(() -> new AssertionError("no point " + labels + " in " + family.getMetadata().getName()));
        return assertInstanceOf(type, point);
    }

    private static double counter(MetricSnapshots snapshots, String name, Labels labels) {
        return point(family(snapshots, name, CounterSnapshot.class), labels, CounterDataPointSnapshot.class).getValue();
    }

    private static double gauge(MetricSnapshots snapshots, String name, Labels labels) {
        return point(family(snapshots, name, GaugeSnapshot.class), labels, GaugeDataPointSnapshot.class).getValue();
    }

    private static SummaryDataPointSnapshot summary(MetricSnapshots snapshots, String name, Labels labels) {
        return point(family(snapshots, name, SummarySnapshot.class), labels, SummaryDataPointSnapshot.class);
    }

    private static List<Double> quantiles(SummaryDataPointSnapshot point) {
        List<Double> quantiles = new ArrayList<>();
        point.getQuantiles().forEach(quantile -> quantiles.add(quantile.getQuantile()));
        return quantiles;
    }

    private static CounterDataPointSnapshot skippedPoint(MetricSnapshots snapshots, String reason) {
        return point(family(snapshots, StormMetricsCollector.SKIPPED_METRICS, CounterSnapshot.class),
            Labels.of(StormMetricsCollector.REASON, reason), CounterDataPointSnapshot.class);
    }
}
