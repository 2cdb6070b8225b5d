package io.whale.woc;

import io.whale.config.WhaleConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.testing.TestWordCounter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.utils.Utils;

/** A real topology context for the WOC tests: spout "src" (task 1) all-grouped to bolt "sink" (tasks 2..7). */
public final class WocTestTopology {
    public static final int SOURCE_TASK = 1;
    public static final List<Integer> SINK_TASKS = List.of(2, 3, 4, 5, 6, 7);

    private WocTestTopology() {
    }

    public static Map<String, Object> conf() {
        Map<String, Object> conf = Utils.readDefaultConfig();
        conf.put(WhaleConfig.WOC_ENABLED, true);
        return conf;
    }

    public static GeneralTopologyContext context() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("src", new TestWordSpout(), 1);
        builder.setBolt("sink", new TestWordCounter(), SINK_TASKS.size()).allGrouping("src");
        StormTopology topology = builder.createTopology();
        Map<Integer, String> taskToComponent = new HashMap<>();
        taskToComponent.put(SOURCE_TASK, "src");
        SINK_TASKS.forEach(t -> taskToComponent.put(t, "sink"));
        Map<String, List<Integer>> componentToTasks = Map.of("src", List.of(SOURCE_TASK), "sink", SINK_TASKS);
        Map<String, Map<String, Fields>> fields = Map.of(
            "src", Map.of(Utils.DEFAULT_STREAM_ID, new Fields("word")),
            "sink", Map.of(Utils.DEFAULT_STREAM_ID, new Fields("word", "count")));
        return new GeneralTopologyContext(topology, conf(), taskToComponent, componentToTasks, fields, "woc-test-1");
    }
}
