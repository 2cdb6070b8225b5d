package io.whale.examples.smoke;

import io.whale.examples.topology.UploadProgress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;

/**
 * Reliable spout -> P recording bolts with all grouping, over W workers: every id must end up acked and on
 * record in every bolt task, also when a worker is killed mid-run. Submit with {@code whale jar
 * whale-example-smoke-VERSION-fixtures.jar io.whale.examples.smoke.AckingTopology --report-dir DIR [--name N] [--ids N]
 * [--rate IDS_PER_SEC or steps R1:SECS1,...,Rn[:SECSn], see RateSchedule] [--parallelism P] [--workers W]
 * [--timeout-secs S] [--max-pending M]}.
 */
public final class AckingTopology {
    public static final String SPOUT = "ids";
    public static final String BOLT = "record";

    private AckingTopology() {
    }

    public static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("--name", "whale-acking");
        d.put("--ids", "3000");
        d.put("--rate", "150");
        d.put("--parallelism", "6");
        d.put("--workers", "2");
        d.put("--timeout-secs", "10");
        d.put("--max-pending", "300");
        d.put("--report-dir", "");
        return d;
    }

    public static StormTopology build(TopologyOptions o) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(SPOUT, new ReliableIdSpout(o.number("--ids"), RateSchedule.parse(o.text("--rate")),
            o.text("--report-dir")), 1);
        builder.setBolt(BOLT, new RecordingBolt(o.text("--report-dir")), o.number("--parallelism")).allGrouping(SPOUT);
        return builder.createTopology();
    }

    public static Config config(TopologyOptions o) {
        Config conf = new Config();
        conf.setNumWorkers(o.number("--workers"));
        conf.setMaxSpoutPending(o.number("--max-pending"));
        conf.setMessageTimeoutSecs(o.number("--timeout-secs"));
        return conf;
    }

    public static void main(String[] args) throws Exception {
        TopologyOptions o = TopologyOptions.parse(args, defaults());
        UploadProgress.submit(o.text("--name"), config(o), build(o));
        System.out.println("submitted " + String.join(" ", o.toArgs()));
    }
}
