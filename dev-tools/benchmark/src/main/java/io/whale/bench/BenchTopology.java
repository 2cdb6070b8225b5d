package io.whale.bench;

import io.whale.examples.smoke.RateSchedule;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;

/**
 * The benchmark topology: one {@link OrderSpout} broadcasting (all grouping) to P {@link MatcherBolt}s over W
 * workers, acking off. Submit with {@code whale jar whale-benchmark-topology.jar io.whale.bench.BenchTopology NAME P W
 * REPORT_DIR [RATE_STEPS]} (RATE_STEPS: the spout's {@link RateSchedule}, {@code R1:S1,R2:S2,...}); Whale's switches ({@code whale.woc.enabled}, {@code whale.transport}, wait-strategy settings) come as
 * {@code -c key=value}.
 */
public final class BenchTopology {
    static final String SPOUT = "orders";
    static final String MATCHER = "match";
    /** Heap of every worker, whatever its executor count (Storm would ask for 128 MB per executor). */
    static final String WORKER_HEAP = "-Xmx1g";
    /**
     * Environment variable with more worker JVM options, e.g. a JFR recording for profiling:
     * {@code -XX:StartFlightRecording=delay=20s,duration=15s,settings=profile,filename=/tmp/w-%WORKER-PORT%.jfr}
     * (Storm substitutes {@code %WORKER-PORT%}).
     */
    static final String EXTRA_WORKER_OPTIONS = "WHALE_BENCH_WORKER_OPTS";
    static final int COUNTER_REPORT_SECONDS = 1;

    private BenchTopology() {
    }

    static StormTopology build(int matchers, String reportDir, RateSchedule rateSteps) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(SPOUT, new OrderSpout(reportDir, rateSteps), 1);
        builder.setBolt(MATCHER, new MatcherBolt(reportDir), matchers).allGrouping(SPOUT);
        return builder.createTopology();
    }

    static String workerOptions(String extra) {
        return extra == null || extra.isBlank() ? WORKER_HEAP : WORKER_HEAP + " " + extra.trim();
    }

    static Config config(int workers) {
        Config conf = new Config();
        conf.setNumWorkers(workers);
        conf.setNumAckers(0);
        conf.put(Config.TOPOLOGY_COMPONENT_RESOURCES_ONHEAP_MEMORY_MB, 8.0);
        conf.put(Config.TOPOLOGY_WORKER_CHILDOPTS, workerOptions(System.getenv(EXTRA_WORKER_OPTIONS)));
        conf.put(Config.TOPOLOGY_METRICS_REPORTERS, List.of(counterReporter()));
        return conf;
    }

    /**
     * Storm's console metrics reporter, limited to Whale's worker counters, every second into worker.log, where
     * the driver reads them ({@link WorkerCounterLog}). The filter keeps it to a few lines per report.
     */
    static Map<String, Object> counterReporter() {
        return Map.of("class", "org.apache.storm.metrics2.reporters.ConsoleStormReporter",
            "report.period", COUNTER_REPORT_SECONDS, "report.period.units", "SECONDS",
            "filter", Map.of("class", WhaleCounterFilter.class.getName()));
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && args.length != 5) {
            throw new IllegalArgumentException("usage: BenchTopology NAME MATCHERS WORKERS REPORT_DIR [RATE_STEPS]");
        }
        RateSchedule rateSteps = args.length == 5 ? RateSchedule.parse(args[4]) : null;
        StormSubmitter.submitTopology(args[0], config(Integer.parseInt(args[2])), build(Integer.parseInt(args[1]), args[3], rateSteps));
    }
}
