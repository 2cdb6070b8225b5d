package io.whale.metrics.prometheus;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricFilter;
import com.codahale.metrics.ScheduledReporter;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Pattern;
import org.apache.storm.metrics2.MetricRegistryProvider;
import org.apache.storm.metrics2.TaskMetricDimensions;
import org.apache.storm.metrics2.TaskMetricRepo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task metrics of a worker's Storm metrics v2 registry ({@link MetricRegistryProvider#getTaskMetrics()}) as
 * Prometheus metric families, read afresh on every scrape.
 *
 * <p>Naming: {@value #PREFIX} + the metric's short name with every character outside {@code [a-zA-Z0-9_]} replaced by
 * {@code _} and runs of {@code _} (and any at either end) collapsed, e.g. {@code __emit-count} becomes
 * {@code storm_emit_count}. Labels: {@code topology}, {@code host} (as Storm reports it), {@code worker_port},
 * {@code component}, {@code task} and, for per-stream metrics, {@code stream}.
 *
 * <p>Types: a Counter is a counter, a Meter a counter of its count, a Gauge a gauge when its value is a
 * {@link Number} (or a {@link Boolean}, as 1 or 0), a Histogram a summary (count and the quantiles
 * {@code 0.5, 0.75, 0.95, 0.99}), a Timer a summary in seconds whose name ends in {@code _seconds}.
 *
 * <p>Each name is one family with one data point per label set. Whatever cannot be exposed is left out of the
 * scrape and counted in the counter {@value #SKIPPED_METRICS}{@code _total} of this collector, by
 * {@value #REASON}: {@value #GAUGE_FAILED} (the gauge threw), {@value #NOT_A_NUMBER} (the gauge's value is not a
 * number), {@value #NEGATIVE_COUNT} (a counter or meter below zero), {@value #NAME_CLASH} (the name belongs to a
 * family of another type this scrape, the first seen, or the series it exposes would collide with another
 * family's), {@value #DUPLICATE} (a second Storm metric with the same name and labels, e.g. {@code a-b} and
 * {@code a_b} of one task). A scrape never fails because of one metric.
 */
public final class StormMetricsCollector implements MultiCollector {
    /** The prefix of every Storm metric's name. */
    public static final String PREFIX = "storm_";
    /** The counter of metrics left out of scrapes (exposed with the suffix {@code _total}). */
    public static final String SKIPPED_METRICS = "whale_prometheus_skipped_metrics";
    /** The label of {@link #SKIPPED_METRICS} saying why. */
    public static final String REASON = "reason";
    /** {@link #REASON}: the gauge threw. */
    public static final String GAUGE_FAILED = "gauge_failed";
    /** {@link #REASON}: the gauge's value is neither a number nor a boolean. */
    public static final String NOT_A_NUMBER = "not_a_number";
    /** {@link #REASON}: a counter or meter below zero, which a Prometheus counter cannot be. */
    public static final String NEGATIVE_COUNT = "negative_count";
    /** {@link #REASON}: the name is another type's this scrape, or its series would collide with another family's. */
    public static final String NAME_CLASH = "name_clash";
    /** {@link #REASON}: a second Storm metric with the same name and labels. */
    public static final String DUPLICATE = "duplicate";

    private static final Logger LOG = LoggerFactory.getLogger(StormMetricsCollector.class);
    private static final Pattern NOT_ALLOWED = Pattern.compile("[^a-zA-Z0-9_]");
    private static final Pattern UNDERSCORES = Pattern.compile("_{2,}");
    private static final double[] QUANTILES = {0.5, 0.75, 0.95, 0.99};
    /** Storm's dimension names ({@link TaskMetricDimensions#getDimensions()}) and the labels they become. */
    private static final String[][] LABELS = {
        {"topologyId", "topology"}, {"hostname", "host"}, {"port", "worker_port"},
        {"componentId", "component"}, {"taskid", "task"}, {"streamId", "stream"},
    };

    private final MetricRegistryProvider registry;
    private final Capture capture;
    private final io.prometheus.metrics.core.metrics.Counter skipped;
    private boolean gaugeFailureLogged;

    /**
     * @param registry the worker's registry, read on each {@link #collect()}
     */
    public StormMetricsCollector(MetricRegistryProvider registry) {
        this.registry = registry;
        this.capture = new Capture(registry);
        this.skipped = io.prometheus.metrics.core.metrics.Counter.builder()
            .name(SKIPPED_METRICS)
            .help("Storm metrics left out of scrapes of this endpoint, by reason")
            .labelNames(REASON)
            .withoutExemplars()
            .build();
        for (String reason : List.of(GAUGE_FAILED, NOT_A_NUMBER, NEGATIVE_COUNT, NAME_CLASH, DUPLICATE)) {
            skipped.initLabelValues(reason);
        }
    }

    /**
     * The Prometheus name of the Storm metric {@code shortName}: {@value #PREFIX} and the short name, sanitized.
     */
    public static String name(String shortName) {
        String sanitized = UNDERSCORES.matcher(NOT_ALLOWED.matcher(PREFIX + shortName).replaceAll("_")).replaceAll("_");
        return sanitized.endsWith("_") ? sanitized.substring(0, sanitized.length() - 1) : sanitized;
    }

    /** How many metrics scrapes have left out so far for {@code reason} (one of this class's reason constants). */
    public long skipped(String reason) {
        return skipped.labelValues(reason).getLongValue();
    }

    /** Every task metric of the registry now, and {@link #SKIPPED_METRICS} last (it counts this scrape too). */
    @Override
    public synchronized MetricSnapshots collect() {
        Scrape scrape = new Scrape();
        for (Map.Entry<TaskMetricDimensions, TaskMetricRepo> task : registry.getTaskMetrics().entrySet()) {
            Labels labels = labels(task.getKey().getDimensions());
            Batch batch = capture.read(task.getValue());
            batch.gauges().forEach((name, gauge) -> addGauge(scrape, name, gauge, labels));
            batch.counters().forEach((name, counter) -> addCount(scrape, name, counter.getCount(), labels));
            batch.histograms().forEach((name, histogram) ->
                addSummary(scrape, name(name), name, histogram.getCount(), histogram.getSnapshot(), v -> v, labels));
            batch.meters().forEach((name, meter) -> addCount(scrape, name, meter.getCount(), labels));
            batch.timers().forEach((name, timer) -> addSummary(scrape, name(name) + "_seconds", name, timer.getCount(),
                timer.getSnapshot(), capture::seconds, labels));
        }
        List<MetricSnapshot> snapshots = scrape.build();
        snapshots.add(skipped.collect());
        return new MetricSnapshots(snapshots);
    }

    private static Labels labels(Map<String, String> dimensions) {
        Labels.Builder labels = Labels.builder();
        for (String[] label : LABELS) {
            String value = dimensions.get(label[0]);
            if (value != null) {
                labels.label(label[1], value);
            }
        }
        return labels.build();
    }

    private void addGauge(Scrape scrape, String shortName, Gauge<?> gauge, Labels labels) {
        Object value;
        try {
            value = gauge.getValue();
        } catch (Exception e) {
            skip(GAUGE_FAILED);
            if (!gaugeFailureLogged) {
                gaugeFailureLogged = true;
                LOG.warn("The Storm gauge {} ({}) threw on a Prometheus scrape and was left out; such gauges are"
                         + " counted in " + SKIPPED_METRICS + "_total{" + REASON + "=\"" + GAUGE_FAILED + "\"}"
                         + " from now on, without a log line", shortName, labels, e);
            }
            return;
        }
        double number;
        if (value instanceof Number n) {
            number = n.doubleValue();
        } else if (value instanceof Boolean b) {
            number = b ? 1 : 0;
        } else {
            skip(NOT_A_NUMBER);
            return;
        }
        scrape.add(Kind.GAUGE, name(shortName), shortName, labels,
            GaugeDataPointSnapshot.builder().labels(labels).value(number).build());
    }

    private void addCount(Scrape scrape, String shortName, long count, Labels labels) {
        if (count < 0) {
            skip(NEGATIVE_COUNT);
            return;
        }
        scrape.add(Kind.COUNTER, name(shortName), shortName, labels,
            CounterDataPointSnapshot.builder().labels(labels).value(count).build());
    }

    private static void addSummary(Scrape scrape, String name, String shortName, long count, Snapshot snapshot,
                                   DoubleUnaryOperator unit, Labels labels) {
        List<Quantile> quantiles = new ArrayList<>(QUANTILES.length);
        for (double quantile : QUANTILES) {
            quantiles.add(new Quantile(quantile, unit.applyAsDouble(snapshot.getValue(quantile))));
        }
        scrape.add(Kind.SUMMARY, name, shortName, labels,
            SummaryDataPointSnapshot.builder().labels(labels).count(count).quantiles(Quantiles.of(quantiles)).build());
    }

    private void skip(String reason) {
        skipped.labelValues(reason).inc();
    }

    private enum Kind {
        COUNTER, GAUGE, SUMMARY;

        /** The name Prometheus knows the family {@code name} by (a counter's {@code _total} is the exposition's). */
        String familyName(String name) {
            return this == COUNTER && name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
        }

        /** The names of the series the family {@code familyName} exposes (or that its exposition reserves). */
        Set<String> exposedNames(String familyName) {
            return switch (this) {
                case COUNTER -> Set.of(familyName, familyName + "_total");
                case GAUGE -> Set.of(familyName);
                case SUMMARY -> Set.of(familyName, familyName + "_count", familyName + "_sum");
            };
        }
    }

    /** One family being gathered: its first Storm short name is its help. */
    private record Family(Kind kind, String name, String help, Map<Labels, DataPointSnapshot> points) {
        MetricSnapshot build() {
            return switch (kind) {
                case COUNTER -> {
                    CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help);
                    points.values().forEach(point -> family.dataPoint((CounterDataPointSnapshot) point));
                    yield family.build();
                }
                case GAUGE -> {
                    GaugeSnapshot.Builder family = GaugeSnapshot.builder().name(name).help(help);
                    points.values().forEach(point -> family.dataPoint((GaugeDataPointSnapshot) point));
                    yield family.build();
                }
                case SUMMARY -> {
                    SummarySnapshot.Builder family = SummarySnapshot.builder().name(name).help(help);
                    points.values().forEach(point -> family.dataPoint((SummaryDataPointSnapshot) point));
                    yield family.build();
                }
            };
        }
    }

    /** The families of one scrape, merged by name; the first type a name is seen with wins. */
    private final class Scrape {
        private final Map<String, Family> families = new LinkedHashMap<>();
        /** Which family exposes each series name. */
        private final Map<String, String> exposedBy = new HashMap<>();

        void add(Kind kind, String name, String shortName, Labels labels, DataPointSnapshot point) {
            String familyName = kind.familyName(name);
            Family family = families.get(familyName);
            if (family == null) {
                Set<String> exposed = kind.exposedNames(familyName);
                if (exposed.stream().anyMatch(exposedBy::containsKey)) {
                    skip(NAME_CLASH);
                    return;
                }
                family = new Family(kind, familyName, "Storm metric " + shortName, new LinkedHashMap<>());
                families.put(familyName, family);
                exposed.forEach(series -> exposedBy.put(series, familyName));
            } else if (family.kind() != kind) {
                skip(NAME_CLASH);
                return;
            }
            if (family.points().putIfAbsent(labels, point) != null) {
                skip(DUPLICATE);
            }
        }

        List<MetricSnapshot> build() {
            List<MetricSnapshot> snapshots = new ArrayList<>(families.size() + 1);
            families.values().forEach(family -> snapshots.add(family.build()));
            return snapshots;
        }
    }

    /** What {@link TaskMetricRepo#report} hands a reporter: one task's metrics by short name. */
    private record Batch(SortedMap<String, Gauge> gauges, SortedMap<String, Counter> counters,
                         SortedMap<String, Histogram> histograms, SortedMap<String, Meter> meters,
                         SortedMap<String, Timer> timers) {
    }

    /**
     * Reads one task's metrics out of its {@link TaskMetricRepo}, which only hands them to a reporter; never
     * started (as Storm's own {@code DimensionalReporter} does with the reporter it wraps). Durations in seconds.
     */
    private static final class Capture extends ScheduledReporter {
        private Batch batch;

        Capture(MetricRegistryProvider registry) {
            super(registry.getRegistry(), "whale-prometheus", MetricFilter.ALL, TimeUnit.SECONDS, TimeUnit.SECONDS);
        }

        Batch read(TaskMetricRepo repo) {
            repo.report(this, MetricFilter.ALL);
            Batch read = batch;
            batch = null;
            return read;
        }

        double seconds(double nanos) {
            return convertDuration(nanos);
        }

        @Override
        public void report(SortedMap<String, Gauge> gauges, SortedMap<String, Counter> counters,
                           SortedMap<String, Histogram> histograms, SortedMap<String, Meter> meters,
                           SortedMap<String, Timer> timers) {
            batch = new Batch(gauges, counters, histograms, meters, timers);
        }
    }
}
