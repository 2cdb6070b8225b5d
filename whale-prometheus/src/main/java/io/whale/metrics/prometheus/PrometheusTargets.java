package io.whale.metrics.prometheus;

import io.whale.security.WorkerZkRoots;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.org.apache.zookeeper.KeeperException;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where workers serve their metrics, in ZooKeeper under {@code storm.zookeeper.root}, for whale ui's scrape targets:
 * each serving worker has an ephemeral node {@value #ROOT}{@code /TOPOLOGY-ID/HOST:WORKER-PORT} holding
 * {@code {"topologyId", "host", "workerPort", "metricsPort", "pid"}} as JSON. The node goes with the worker's ZooKeeper
 * session and is removed when the reporter stops.
 */
public final class PrometheusTargets {
    public static final String ROOT = WorkerZkRoots.PROMETHEUS;
    private static final Logger LOG = LoggerFactory.getLogger(PrometheusTargets.class);
    /** The nodes whose data could not be read, each logged once. */
    private static final Set<String> UNREADABLE_LOGGED = ConcurrentHashMap.newKeySet();

    private PrometheusTargets() {
    }

    /**
     * One worker's endpoint.
     *
     * @param topologyId the worker's topology
     * @param host the worker's host (Storm's {@code storm.local.hostname}, or the host's name)
     * @param workerPort the worker's slot port
     * @param metricsPort the port the worker serves its metrics on
     * @param pid the worker's process id (the UI shows it beside the worker)
     */
    public record Target(String topologyId, String host, int workerPort, int metricsPort, long pid) {
        /** {@code host:metricsPort}, what Prometheus scrapes. */
        public String address() {
            return host + ":" + metricsPort;
        }
    }

    /** The node of the worker {@code host:workerPort} of {@code topologyId}. */
    public static String path(String topologyId, String host, int workerPort) {
        return ROOT + "/" + topologyId + "/" + host + ":" + workerPort;
    }

    /**
     * Writes {@code target} as an ephemeral node of {@code storage}'s session, creating the parents it needs.
     *
     * @param acls the ACLs of the node and of the parents it creates, null for ZooKeeper's open default
     */
    public static void publish(IStateStorage storage, List<ACL> acls, Target target) {
        storage.set_ephemeral_node(path(target.topologyId(), target.host(), target.workerPort()), json(target), acls);
    }

    /** Removes {@code target}'s node, if it is there. */
    public static void unpublish(IStateStorage storage, Target target) {
        storage.delete_node(path(target.topologyId(), target.host(), target.workerPort()));
    }

    /**
     * Every published endpoint of every topology, sorted by topology, host and worker port; none when
     * {@value #ROOT} does not exist. A node whose data is not a target is left out (and logged once); a node that
     * goes away while it is read is left out quietly.
     */
    public static List<Target> read(IStateStorage storage) {
        List<Target> targets = new ArrayList<>();
        for (String topologyId : children(storage, ROOT)) {
            for (String worker : children(storage, ROOT + "/" + topologyId)) {
                String path = ROOT + "/" + topologyId + "/" + worker;
                byte[] data = storage.get_data(path, false);
                if (data == null) {
                    continue;
                }
                Target target = target(data);
                if (target != null) {
                    targets.add(target);
                } else if (UNREADABLE_LOGGED.add(path)) {
                    LOG.warn("ZooKeeper node {} does not hold a Prometheus endpoint ({\"topologyId\", \"host\","
                             + " \"workerPort\", \"metricsPort\", \"pid\"}); it is not listed as a scrape target", path);
                }
            }
        }
        targets.sort(Comparator.comparing(Target::topologyId).thenComparing(Target::host)
            .thenComparingInt(Target::workerPort));
        return targets;
    }

    private static List<String> children(IStateStorage storage, String path) {
        try {
            return storage.node_exists(path, false) ? storage.get_children(path, false) : List.of();
        } catch (RuntimeException e) {
            if (Utils.exceptionCauseIsInstanceOf(KeeperException.NoNodeException.class, e)) {
                return List.of();
            }
            throw e;
        }
    }

    private static byte[] json(Target target) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topologyId", target.topologyId());
        json.put("host", target.host());
        json.put("workerPort", target.workerPort());
        json.put("metricsPort", target.metricsPort());
        json.put("pid", target.pid());
        return JSONValue.toJSONString(json).getBytes(StandardCharsets.UTF_8);
    }

    /** The target {@code data} describes, or null if it does not describe one. */
    private static Target target(byte[] data) {
        Object parsed;
        try {
            parsed = JSONValue.parse(new String(data, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return null;
        }
        if (parsed instanceof Map<?, ?> json
            && json.get("topologyId") instanceof String topologyId
            && json.get("host") instanceof String host
            && json.get("workerPort") instanceof Number workerPort
            && json.get("metricsPort") instanceof Number metricsPort
            && json.get("pid") instanceof Number pid
            && isPort(workerPort.intValue()) && isPort(metricsPort.intValue())) {
            return new Target(topologyId, host, workerPort.intValue(), metricsPort.intValue(), pid.longValue());
        }
        return null;
    }

    private static boolean isPort(int port) {
        return port >= 1 && port <= 65535;
    }
}
