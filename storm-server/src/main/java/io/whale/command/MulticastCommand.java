package io.whale.command;

import io.whale.relay.MulticastBoard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.cluster.ClusterStateContext;
import org.apache.storm.cluster.ClusterUtils;
import org.apache.storm.cluster.DaemonType;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * {@code whale multicast TOPOLOGY [--json FILE] [--dot FILE]}: the relay trees a running topology's broadcasts
 * travel along now, as its source workers publish them in ZooKeeper ({@link TreeBoard}): per source worker and
 * source task an indented tree of workers as host:port with their out-degrees, and with a live shape d*, λ, t_e,
 * the queue and E(L); {@code --json} and {@code --dot} export the same trees.
 */
public final class MulticastCommand {
    private static final String USAGE = "usage: whale multicast TOPOLOGY [--json FILE] [--dot FILE]";

    private MulticastCommand() {
    }

    public static void main(String[] args) throws Exception {
        String name = null;
        Path json = null;
        Path dot = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--json" -> json = Path.of(value(args, ++i, "--json"));
                case "--dot" -> dot = Path.of(value(args, ++i, "--dot"));
                case "-h", "--help" -> {
                    System.out.println(USAGE);
                    return;
                }
                default -> {
                    if (name != null || args[i].startsWith("-")) {
                        fail("unexpected argument '" + args[i] + "'");
                    }
                    name = args[i];
                }
            }
        }
        if (name == null) {
            fail("which topology?");
        }
        Map<String, Object> conf = Utils.readStormConfig();
        String topologyId;
        Map<Integer, String> components = new HashMap<>();
        try (NimbusClient nimbus = NimbusClient.getConfiguredClient(conf)) {
            TopologySummary summary = nimbus.getClient().getTopologySummaryByName(name);
            if (summary == null) {
                throw new NotAliveException(name);
            }
            topologyId = summary.get_id();
            TopologyInfo info = nimbus.getClient().getTopologyInfo(topologyId);
            for (ExecutorSummary executor : info.get_executors()) {
                for (int task = executor.get_executor_info().get_task_start(); task <= executor.get_executor_info().get_task_end(); task++) {
                    components.put(task, executor.get_component_id());
                }
            }
        } catch (NotAliveException e) {
            fail("no running topology named '" + name + "'");
            return;
        }
        List<MulticastBoard> boards = read(conf, topologyId);
        if (boards.isEmpty()) {
            System.out.println("No source worker of " + name + " (" + topologyId + ") publishes relay trees: its"
                + " whale.multicast.structure is sequential or unset, or no broadcast has left its sources yet.");
        } else {
            System.out.println("Relay trees of " + name + " (" + topologyId + "), from " + boards.size() + " source worker(s):");
            System.out.print(MulticastReport.text(boards, components, System.currentTimeMillis()));
        }
        if (json != null) {
            Files.writeString(json, MulticastReport.json(topologyId, boards, components));
            System.out.println("JSON written to " + json);
        }
        if (dot != null) {
            Files.writeString(dot, MulticastReport.dot(boards));
            System.out.println("DOT written to " + dot);
        }
    }

    private static List<MulticastBoard> read(Map<String, Object> conf, String topologyId) throws Exception {
        IStateStorage zk = ClusterUtils.mkStateStorage(conf, conf, new ClusterStateContext(DaemonType.UNKNOWN, conf));
        try {
            return MulticastBoard.read(zk, topologyId);
        } finally {
            zk.close();
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail(option + " needs a file");
        }
        return args[i];
    }

    private static void fail(String message) {
        System.err.println("whale multicast: " + message + "\n" + USAGE);
        System.exit(1);
    }
}
