package io.whale.metrics.prometheus;

import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.Config;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.utils.Utils;

/**
 * A started {@link StormMetricRegistry} as a worker of {@value #TOPOLOGY} on port {@value #WORKER_PORT} has it,
 * stopped by {@link #close}; and the contexts its tasks register their metrics with.
 */
final class WorkerRegistry implements AutoCloseable {
    static final String TOPOLOGY = "topo-1";
    static final int WORKER_PORT = 6700;

    final StormMetricRegistry registry = new StormMetricRegistry();

    WorkerRegistry() {
        this(Map.of(Config.STORM_ID, TOPOLOGY));
    }

    /** Started with {@code topoConf}, which starts the reporters it lists. */
    WorkerRegistry(Map<String, Object> topoConf) {
        registry.start(topoConf, WORKER_PORT);
    }

    /** The host label Storm gives this machine's metrics: its name with dots as underscores. */
    static String host() throws UnknownHostException {
        return Utils.localHostname().replace('.', '_');
    }

    /** The context of task {@code taskId} of {@code component}, as the worker gives a bolt or spout. */
    TopologyContext task(String component, int taskId) {
        return new TopologyContext(null, new HashMap<>(), Map.of(taskId, component), Map.of(component, List.of(taskId)),
            Map.of(), new HashMap<>(), TOPOLOGY, null, null, taskId, WORKER_PORT, List.of(taskId), Map.of(), Map.of(),
            new HashMap<>(), new HashMap<>(), new AtomicBoolean(true), registry);
    }

    @Override
    public void close() {
        registry.stop();
    }
}
