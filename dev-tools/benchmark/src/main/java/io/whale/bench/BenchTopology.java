package io.whale.bench;

import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;

/**
 * The benchmark topology: one {@link OrderSpout} broadcasting (all grouping) to P {@link MatcherBolt}s over W
 * workers, acking off. Submit with {@code whale jar whale-benchmark-topology.jar io.whale.bench.BenchTopology NAME P W
 * REPORT_DIR}; Whale's switches ({@code whale.woc.enabled}, wait-strategy settings) come as {@code -c key=value}.
 */
public final class BenchTopology {
    static final String SPOUT = "orders";
    static final String MATCHER = "match";
    /** Heap of every worker, whatever its executor count (Storm would ask for 128 MB per executor). */
    static final String WORKER_HEAP = "-Xmx1g";

    private BenchTopology() {
    }

    static StormTopology build(int matchers, String reportDir) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(SPOUT, new OrderSpout(reportDir), 1);
        builder.setBolt(MATCHER, new MatcherBolt(reportDir), matchers).allGrouping(SPOUT);
        return builder.createTopology();
    }

    static Config config(int workers) {
        Config conf = new Config();
        conf.setNumWorkers(workers);
        conf.setNumAckers(0);
        conf.put(Config.TOPOLOGY_COMPONENT_RESOURCES_ONHEAP_MEMORY_MB, 8.0);
        conf.put(Config.TOPOLOGY_WORKER_CHILDOPTS, WORKER_HEAP);
        return conf;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: BenchTopology NAME MATCHERS WORKERS REPORT_DIR");
        }
        StormSubmitter.submitTopology(args[0], config(Integer.parseInt(args[2])), build(Integer.parseInt(args[1]), args[3]));
    }
}
