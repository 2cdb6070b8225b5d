package io.whale.ui.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.generated.BoltAggregateStats;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.CommonAggregateStats;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.TopologyStats;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.generated.WorkerSummary;

/**
 * The Storm UI's JSON documents (docs/STORM-UI-REST-API.md of Apache Storm) built from Nimbus's Thrift answers, with
 * the same field names for the fields provided, so that scripts written against the Storm UI keep working. Resource
 * fields (memory, CPU) are left out: Whale's clusters run Storm's default scheduler, whose UI hides them too.
 */
public final class StormUiJson {
    /** Storm UI's windows, in its order: 10 min, 3 h, 1 day, all time. */
    public static final List<String> WINDOWS = List.of("600", "10800", "86400", ":all-time");
    public static final String STORM_VERSION = "2.8.3";

    private StormUiJson() {
    }

    /** {@code /api/v1/cluster/summary}. */
    public static Map<String, Object> clusterSummary(ClusterSummary cluster) {
        int slotsTotal = cluster.get_supervisors().stream().mapToInt(SupervisorSummary::get_num_workers).sum();
        int slotsUsed = cluster.get_supervisors().stream().mapToInt(SupervisorSummary::get_num_used_workers).sum();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("stormVersion", cluster.get_nimbuses().stream().map(NimbusSummary::get_version).findFirst().orElse(STORM_VERSION));
        doc.put("supervisors", cluster.get_supervisors_size());
        doc.put("topologies", cluster.get_topologies_size());
        doc.put("slotsTotal", slotsTotal);
        doc.put("slotsUsed", slotsUsed);
        doc.put("slotsFree", slotsTotal - slotsUsed);
        doc.put("executorsTotal", cluster.get_topologies().stream().mapToInt(TopologySummary::get_num_executors).sum());
        doc.put("tasksTotal", cluster.get_topologies().stream().mapToInt(TopologySummary::get_num_tasks).sum());
        doc.put("schedulerDisplayResource", false);
        return doc;
    }

    /** {@code /api/v1/nimbus/summary}. */
    public static Map<String, Object> nimbusSummary(ClusterSummary cluster) {
        List<Map<String, Object>> nimbuses = new ArrayList<>();
        for (NimbusSummary nimbus : cluster.get_nimbuses()) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("host", nimbus.get_host());
            n.put("port", nimbus.get_port());
            n.put("status", nimbus.is_isLeader() ? "Leader" : "Not a Leader");
            n.put("nimbusUpTime", Durations.pretty(nimbus.get_uptime_secs()));
            n.put("nimbusUpTimeSeconds", nimbus.get_uptime_secs());
            n.put("version", nimbus.get_version());
            nimbuses.add(n);
        }
        return Map.of("nimbuses", nimbuses);
    }

    /** {@code /api/v1/supervisor/summary}. */
    public static Map<String, Object> supervisorSummary(ClusterSummary cluster) {
        List<Map<String, Object>> supervisors = new ArrayList<>();
        for (SupervisorSummary s : cluster.get_supervisors()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("id", s.get_supervisor_id());
            doc.put("host", s.get_host());
            doc.put("uptime", Durations.pretty(s.get_uptime_secs()));
            doc.put("uptimeSeconds", s.get_uptime_secs());
            doc.put("slotsTotal", s.get_num_workers());
            doc.put("slotsUsed", s.get_num_used_workers());
            doc.put("slotsFree", s.get_num_workers() - s.get_num_used_workers());
            doc.put("version", s.get_version());
            supervisors.add(doc);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("supervisors", supervisors);
        doc.put("schedulerDisplayResource", false);
        return doc;
    }

    /** {@code /api/v1/topology/summary}. */
    public static Map<String, Object> topologySummary(ClusterSummary cluster) {
        List<Map<String, Object>> topologies = new ArrayList<>();
        for (TopologySummary t : cluster.get_topologies()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("id", t.get_id());
            doc.put("encodedId", t.get_id());
            doc.put("owner", t.get_owner());
            doc.put("name", t.get_name());
            doc.put("status", t.get_status());
            doc.put("uptime", Durations.pretty(t.get_uptime_secs()));
            doc.put("uptimeSeconds", t.get_uptime_secs());
            doc.put("tasksTotal", t.get_num_tasks());
            doc.put("workersTotal", t.get_num_workers());
            doc.put("executorsTotal", t.get_num_executors());
            doc.put("replicationCount", t.get_replication_count());
            topologies.add(doc);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("topologies", topologies);
        doc.put("schedulerDisplayResource", false);
        return doc;
    }

    /**
     * {@code /api/v1/topology/ID?window=W}: {@code pages} holds Nimbus's page for each of {@link #WINDOWS} (the
     * components' figures are those of {@code window}, the topology's stats one entry per window).
     */
    public static Map<String, Object> topology(Map<String, TopologyPageInfo> pages, String window) {
        TopologyPageInfo page = pages.get(window);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", page.get_id());
        doc.put("encodedId", page.get_id());
        doc.put("name", page.get_name());
        doc.put("owner", page.get_owner());
        doc.put("status", page.get_status());
        doc.put("uptime", Durations.pretty(page.get_uptime_secs()));
        doc.put("uptimeSeconds", page.get_uptime_secs());
        doc.put("tasksTotal", page.get_num_tasks());
        // Nimbus leaves the page's worker count at 0 until the workers' first heartbeats; the assignment has them.
        doc.put("workersTotal", Math.max(page.get_num_workers(), page.get_workers_size()));
        doc.put("executorsTotal", page.get_num_executors());
        doc.put("window", window);
        doc.put("windowHint", Durations.window(window));
        doc.put("replicationCount", page.get_replication_count());
        doc.put("schedulerDisplayResource", false);
        List<Map<String, Object>> stats = new ArrayList<>();
        for (String w : WINDOWS) {
            TopologyPageInfo p = pages.get(w);
            if (p != null) {
                stats.add(topologyStats(w, p.get_topology_stats()));
            }
        }
        doc.put("topologyStats", stats);
        doc.put("spouts", components(page.get_id_to_spout_agg_stats(), "spoutId", false));
        doc.put("bolts", components(page.get_id_to_bolt_agg_stats(), "boltId", true));
        doc.put("workers", workers(page.get_workers()));
        return doc;
    }

    private static Map<String, Object> topologyStats(String window, TopologyStats stats) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("windowPretty", Durations.window(window));
        doc.put("window", window);
        doc.put("emitted", stats.get_window_to_emitted().getOrDefault(window, 0L));
        doc.put("transferred", stats.get_window_to_transferred().getOrDefault(window, 0L));
        doc.put("completeLatency", latency(stats.get_window_to_complete_latencies_ms().get(window)));
        doc.put("acked", stats.get_window_to_acked().getOrDefault(window, 0L));
        doc.put("failed", stats.get_window_to_failed().getOrDefault(window, 0L));
        return doc;
    }

    private static List<Map<String, Object>> components(Map<String, ComponentAggregateStats> byId, String idField, boolean bolt) {
        List<Map<String, Object>> components = new ArrayList<>();
        if (byId == null) {
            return components;
        }
        byId.entrySet().stream().filter(e -> !e.getKey().startsWith("__")).sorted(Map.Entry.comparingByKey()).forEach(e -> {
            ComponentAggregateStats c = e.getValue();
            CommonAggregateStats common = c.get_common_stats();
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put(idField, e.getKey());
            doc.put("encoded" + Character.toUpperCase(idField.charAt(0)) + idField.substring(1), e.getKey());
            doc.put("executors", common.get_num_executors());
            doc.put("tasks", common.get_num_tasks());
            doc.put("emitted", common.get_emitted());
            doc.put("transferred", common.get_transferred());
            doc.put("acked", common.get_acked());
            doc.put("failed", common.get_failed());
            if (bolt) {
                BoltAggregateStats b = c.is_set_specific_stats() && c.get_specific_stats().is_set_bolt()
                    ? c.get_specific_stats().get_bolt() : new BoltAggregateStats();
                doc.put("executed", b.get_executed());
                doc.put("executeLatency", latency(b.get_execute_latency_ms()));
                doc.put("processLatency", latency(b.get_process_latency_ms()));
                doc.put("capacity", latency(b.get_capacity()));
            } else {
                doc.put("completeLatency", latency(c.is_set_specific_stats() && c.get_specific_stats().is_set_spout()
                    ? c.get_specific_stats().get_spout().get_complete_latency_ms() : 0));
            }
            ErrorInfo error = c.get_last_error();
            doc.put("lastError", error == null ? "" : error.get_error());
            doc.put("errorHost", error == null ? "" : error.get_host());
            doc.put("errorPort", error == null ? null : error.get_port());
            doc.put("errorTime", error == null ? null : error.get_error_time_secs());
            components.add(doc);
        });
        return components;
    }

    private static List<Map<String, Object>> workers(List<WorkerSummary> summaries) {
        List<Map<String, Object>> workers = new ArrayList<>();
        if (summaries == null) {
            return workers;
        }
        for (WorkerSummary w : summaries) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("supervisorId", w.get_supervisor_id());
            doc.put("host", w.get_host());
            doc.put("port", w.get_port());
            doc.put("topologyId", w.get_topology_id());
            doc.put("topologyName", w.get_topology_name());
            doc.put("executorsTotal", w.get_num_executors());
            doc.put("componentNumTasks", w.get_component_to_num_tasks());
            doc.put("uptime", Durations.pretty(w.get_uptime_secs()));
            doc.put("uptimeSeconds", w.get_uptime_secs());
            workers.add(doc);
        }
        return workers;
    }

    /** Storm's UI writes latencies and capacity as strings with three decimals. */
    private static String latency(Double ms) {
        return String.format(Locale.ROOT, "%.3f", ms == null ? 0.0 : ms);
    }
}
