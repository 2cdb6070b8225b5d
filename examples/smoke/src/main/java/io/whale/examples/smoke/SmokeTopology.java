package io.whale.examples.smoke;

import io.whale.examples.topology.UploadProgress;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;

/**
 * spout -> P counting bolts with all grouping, over W workers. Submit with
 * {@code whale jar whale-example-smoke.jar io.whale.examples.smoke.SmokeTopology [--name N] [--tuples T]
 * [--parallelism P] [--workers W] [--rate R] --report-dir DIR}.
 */
public final class SmokeTopology {
    public static final String SPOUT = "numbers";
    public static final String BOLT = "count";

    private SmokeTopology() {
    }

    public static StormTopology build(SmokeSettings settings) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(SPOUT, new NumberSpout(settings.tuples(), settings.rate()), 1);
        builder.setBolt(BOLT, new CountingBolt(settings.tuples(), settings.reportDir()), settings.parallelism())
            .allGrouping(SPOUT);
        return builder.createTopology();
    }

    public static Config config(SmokeSettings settings) {
        Config conf = new Config();
        conf.setNumWorkers(settings.workers());
        conf.setMaxSpoutPending(1_000);
        return conf;
    }

    public static void main(String[] args) throws Exception {
        SmokeSettings settings = SmokeSettings.parse(args);
        UploadProgress.submit(settings.name(), config(settings), build(settings));
        System.out.printf("submitted %s: %d tuples to %d counting tasks (all grouping) over %d workers; reports in %s%n",
            settings.name(), settings.tuples(), settings.parallelism(), settings.workers(), settings.reportDir());
    }
}
