package io.whale.examples.smoke;

import io.whale.examples.topology.UploadProgress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;

/**
 * Flooding spout -> P paced bolts with all grouping, over W workers, one bolt task in a worker without the
 * spout (or in a worker the test names, see {@link PacedBolt}) deliberately slow (after a warm-up): backpressure
 * must hold the spout to the slow task's pace with bounded queues. Submit with {@code whale jar
 * whale-example-smoke-VERSION-fixtures.jar io.whale.examples.smoke.BackpressureTopology --report-dir DIR [--name N]
 * [--parallelism P] [--workers W] [--slow-task-ms MS] [--slow-after-secs S] [--slow-worker first-remote|named]
 * [--spout-max-rate N] [--payload-bytes B] [--receive-buffer N] [--transfer-buffer N]}.
 */
public final class BackpressureTopology {
    public static final String SPOUT = "flood";
    public static final String BOLT = "paced";

    private BackpressureTopology() {
    }

    public static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("--name", "whale-backpressure");
        d.put("--parallelism", "4");
        d.put("--workers", "2");
        d.put("--slow-task-ms", "2");
        d.put("--slow-after-secs", "5");
        d.put("--slow-worker", PacedBolt.FIRST_REMOTE);
        d.put("--spout-max-rate", "0");
        d.put("--payload-bytes", "1024");
        d.put("--receive-buffer", "1024");
        d.put("--transfer-buffer", "1024");
        d.put("--report-dir", "");
        return d;
    }

    public static StormTopology build(TopologyOptions o) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(SPOUT, new FloodSpout(o.number("--spout-max-rate"), o.number("--payload-bytes"),
            o.text("--report-dir")), 1);
        builder.setBolt(BOLT, new PacedBolt(SPOUT, o.number("--slow-task-ms"), o.number("--slow-after-secs"),
            o.text("--slow-worker"), o.text("--report-dir")), o.number("--parallelism"))
            .allGrouping(SPOUT);
        return builder.createTopology();
    }

    public static Config config(TopologyOptions o) {
        Config conf = new Config();
        conf.setNumWorkers(o.number("--workers"));
        conf.setNumAckers(0);
        conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, o.number("--receive-buffer"));
        conf.put(Config.TOPOLOGY_TRANSFER_BUFFER_SIZE, o.number("--transfer-buffer"));
        return conf;
    }

    public static void main(String[] args) throws Exception {
        TopologyOptions o = TopologyOptions.parse(args, defaults());
        UploadProgress.submit(o.text("--name"), config(o), build(o));
        System.out.println("submitted " + String.join(" ", o.toArgs()));
    }
}
