package io.whale.ui.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.whale.ui.source.UiError;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologySummary;

/**
 * The UI daemon's {@code /metrics}: cluster-level gauges read from Nimbus at each scrape. {@code whale_nimbus_up} is 0
 * (and nothing else is reported) while Nimbus does not answer, so an alert can fire on it.
 */
public final class ClusterGauges implements MultiCollector {
    private final Supplier<ClusterSummary> cluster;

    public ClusterGauges(Supplier<ClusterSummary> cluster) {
        this.cluster = cluster;
    }

    @Override
    public MetricSnapshots collect() {
        ClusterSummary summary;
        try {
            summary = cluster.get();
        } catch (UiError nimbusDown) {
            return MetricSnapshots.of(gauge("whale_nimbus_up", "1 when Nimbus answers the UI, else 0", 0));
        }
        List<MetricSnapshot> gauges = new ArrayList<>();
        gauges.add(gauge("whale_nimbus_up", "1 when Nimbus answers the UI, else 0", 1));
        gauges.add(gauge("whale_cluster_supervisors", "Supervisors registered with Nimbus", summary.get_supervisors_size()));
        gauges.add(gauge("whale_cluster_slots", "Worker slots of all supervisors",
            summary.get_supervisors().stream().mapToInt(SupervisorSummary::get_num_workers).sum()));
        gauges.add(gauge("whale_cluster_slots_used", "Worker slots in use",
            summary.get_supervisors().stream().mapToInt(SupervisorSummary::get_num_used_workers).sum()));
        gauges.add(gauge("whale_cluster_topologies", "Topologies Nimbus knows", summary.get_topologies_size()));
        gauges.add(perTopology("whale_topology_workers", "Workers of each topology", summary, TopologySummary::get_num_workers));
        gauges.add(perTopology("whale_topology_executors", "Executors of each topology", summary, TopologySummary::get_num_executors));
        gauges.add(perTopology("whale_topology_tasks", "Tasks of each topology", summary, TopologySummary::get_num_tasks));
        gauges.add(perTopology("whale_topology_uptime_seconds", "Uptime of each topology", summary, TopologySummary::get_uptime_secs));
        return new MetricSnapshots(gauges);
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    private static GaugeSnapshot perTopology(String name, String help, ClusterSummary summary,
                                             ToIntFunction<TopologySummary> value) {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
        for (TopologySummary t : summary.get_topologies()) {
            gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value.applyAsInt(t))
                .labels(Labels.of("topology", t.get_name(), "topology_id", t.get_id(), "status", t.get_status())).build());
        }
        return gauge.build();
    }
}
