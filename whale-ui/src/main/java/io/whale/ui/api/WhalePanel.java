package io.whale.ui.api;

import io.whale.relay.MulticastBoard;
import io.whale.metrics.prometheus.StormMetricsCollector;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.export.LiveStatistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologyInfo;

/**
 * The Whale panel of a topology, from what Nimbus, ZooKeeper and the workers' Prometheus endpoints say: which
 * switches are on, the WOC, RDMA and relay counters summed over the workers, and each broadcast's path through the
 * workers — the relay trees the source workers publish, or, with {@code whale.multicast.structure: sequential}, the
 * fan-out WOC uses (one frame from the source worker to every destination worker).
 */
public final class WhalePanel {
    public static final String PROMETHEUS_REPORTER = "io.whale.metrics.prometheus.PrometheusReporter";
    private static final String BYTES_SENT_TO = "storm_woc_bytes_sent_to_";

    private WhalePanel() {
    }

    /** The switches as the topology runs with them (Nimbus's topology conf: the cluster's merged with the topology's). */
    public static Map<String, Object> switches(Map<String, Object> conf) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("woc", Boolean.parseBoolean(String.valueOf(conf.getOrDefault("whale.woc.enabled", false))));
        doc.put("transport", String.valueOf(conf.getOrDefault("whale.transport", "netty")));
        doc.put("multicastStructure", String.valueOf(conf.getOrDefault("whale.multicast.structure", "sequential")));
        doc.put("maxOutDegree", String.valueOf(conf.getOrDefault("whale.multicast.max.outdegree", "auto")));
        doc.put("prometheus", prometheusConfigured(conf));
        return doc;
    }

    static boolean prometheusConfigured(Map<String, Object> conf) {
        return conf.get("topology.metrics.reporters") instanceof List<?> reporters
            && reporters.stream().anyMatch(r -> r instanceof Map<?, ?> m && PROMETHEUS_REPORTER.equals(m.get("class")));
    }

    /** A stream subscribed with all grouping: the broadcasts whose paths the panel draws. */
    public record Broadcast(String sourceComponent, String stream, String destinationComponent) {
    }

    public static List<Broadcast> broadcasts(StormTopology topology) {
        List<Broadcast> broadcasts = new ArrayList<>();
        for (Map.Entry<String, Bolt> bolt : new TreeMap<>(topology.get_bolts()).entrySet()) {
            for (Map.Entry<GlobalStreamId, Grouping> input : bolt.getValue().get_common().get_inputs().entrySet()) {
                if (input.getValue().is_set_all() && !input.getKey().get_componentId().startsWith("__")) {
                    broadcasts.add(new Broadcast(input.getKey().get_componentId(), input.getKey().get_streamId(), bolt.getKey()));
                }
            }
        }
        return broadcasts;
    }

    /** WOC's sequential fan-out: per broadcast and source worker, a star to every other worker holding a destination task. */
    public static List<DrawnTree> fanOuts(List<Broadcast> broadcasts, TopologyInfo info) {
        List<DrawnTree> trees = new ArrayList<>();
        for (Broadcast b : broadcasts) {
            Set<String> destinations = workersOf(info, b.destinationComponent());
            for (String source : workersOf(info, b.sourceComponent())) {
                List<String> workers = new ArrayList<>(List.of(source));
                destinations.stream().filter(w -> !w.equals(source)).forEach(workers::add);
                int[][] children = new int[workers.size()][0];
                children[MulticastTree.SOURCE] = new int[workers.size() - 1];
                for (int v = 1; v < workers.size(); v++) {
                    children[MulticastTree.SOURCE][v - 1] = v;
                }
                trees.add(new DrawnTree(b.sourceComponent() + " → " + b.destinationComponent() + " (stream " + b.stream() + ") from " + source,
                    "sequential fan-out: one frame per destination worker, each dispatched to its local tasks there",
                    workers, MulticastTree.fromChildren(children)));
            }
        }
        return trees;
    }

    private static Set<String> workersOf(TopologyInfo info, String component) {
        Set<String> workers = new LinkedHashSet<>();
        info.get_executors().stream().filter(e -> e.get_component_id().equals(component))
            .sorted((x, y) -> worker(x).compareTo(worker(y))).forEach(e -> workers.add(worker(e)));
        return workers;
    }

    private static String worker(ExecutorSummary executor) {
        return executor.get_host() + ":" + executor.get_port();
    }

    /** The relay trees the source workers publish, one per (source worker, source task, tree). */
    public static List<DrawnTree> relayTrees(List<MulticastBoard> boards, Map<Integer, String> components) {
        List<DrawnTree> trees = new ArrayList<>();
        for (MulticastBoard board : boards) {
            for (MulticastBoard.Source s : board.trees()) {
                List<String> workers = new ArrayList<>(List.of(board.worker()));
                workers.addAll(s.members());
                trees.add(new DrawnTree(components.getOrDefault(s.sourceTask(), "task") + " (task " + s.sourceTask() + ") from "
                    + board.worker() + ", " + board.shape() + " tree " + s.treeId() + " epoch " + s.epoch(),
                    caption(s.statistics(), s.tree()), workers, s.tree()));
            }
        }
        return trees;
    }

    static String caption(LiveStatistics live, MulticastTree tree) {
        String shape = "source out-degree " + tree.sourceOutDegree() + ", depth " + tree.depth();
        if (live == null) {
            return shape + " (fixed shape)";
        }
        return shape + String.format(Locale.ROOT, ", d* %d, λ %.0f tuples/s, t_e %.1f µs, queue %d/%d, E(L) %.2f",
            live.modelMaxOutDegree(), live.inputRate(), live.emitNanosPerReplica() / 1_000.0, live.queueLength(),
            live.queueCapacity(), live.modelMeanQueueLength());
    }

    /**
     * The counters, summed over the workers that answered: WOC's with destinations per frame and serializations per
     * emit, ack combining's with the acks per ack sent and the mean wait of a combined ack, the bytes sent to each destination worker (as host:port where {@code workers} names the metric's
     * worker, see {@link #bytesSentToMetric}), and every RDMA and relay counter as it is named.
     */
    public static Map<String, Object> counters(List<Map<String, Double>> scrapes, Map<String, String> workers) {
        Map<String, Double> sum = new TreeMap<>();
        scrapes.forEach(s -> s.forEach((name, value) -> sum.merge(name, value, Double::sum)));
        Map<String, Object> woc = new LinkedHashMap<>();
        for (String c : List.of("frames_sent", "frame_destinations", "emits", "serializations", "frames_received", "frames_malformed")) {
            woc.put(c, sum.getOrDefault("storm_woc_" + c, 0.0).longValue());
        }
        woc.put("destinations_per_frame", ratio(sum, "storm_woc_frame_destinations", "storm_woc_frames_sent"));
        woc.put("serializations_per_emit", ratio(sum, "storm_woc_serializations", "storm_woc_emits"));
        Map<String, Long> bytesTo = new TreeMap<>();
        sum.forEach((name, value) -> {
            if (name.startsWith(BYTES_SENT_TO)) {
                bytesTo.put(workers.getOrDefault(name, name.substring(BYTES_SENT_TO.length())), value.longValue());
            }
        });
        woc.put("bytes_sent_to", bytesTo);
        Map<String, Object> acks = new LinkedHashMap<>();
        for (String c : List.of("acks_offered", "acks_sent", "acks_completed", "acks_dropped")) {
            acks.put(c, sum.getOrDefault("storm_woc_" + c, 0.0).longValue());
        }
        acks.put("acks_per_ack_sent", ratio(sum, "storm_woc_acks_offered", "storm_woc_acks_sent"));
        Double delayUsPerAck = ratio(sum, "storm_woc_ack_delay_us", "storm_woc_acks_sent");
        acks.put("mean_wait_ms", delayUsPerAck == null ? null : Math.round(delayUsPerAck / 10) / 100.0);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("woc", woc);
        doc.put("acks", acks);
        doc.put("rdma", prefixed(sum, "storm_rdma_"));
        doc.put("relay", prefixed(sum, "storm_relay_"));
        return doc;
    }

    /** The Prometheus name of WOC's counter of bytes sent to the worker {@code supervisorId}:{@code port} (WocMetrics). */
    public static String bytesSentToMetric(String supervisorId, int port) {
        return StormMetricsCollector.name("woc-bytes-sent-to-" + supervisorId + "-" + port);
    }

    private static Map<String, Long> prefixed(Map<String, Double> sum, String prefix) {
        Map<String, Long> out = new TreeMap<>();
        sum.forEach((name, value) -> {
            if (name.startsWith(prefix)) {
                out.put(name.substring(prefix.length()), value.longValue());
            }
        });
        return out;
    }

    private static Double ratio(Map<String, Double> sum, String numerator, String denominator) {
        double d = sum.getOrDefault(denominator, 0.0);
        return d == 0 ? null : Math.round(sum.getOrDefault(numerator, 0.0) / d * 100) / 100.0;
    }
}
