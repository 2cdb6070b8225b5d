package io.whale.relay;

import io.whale.config.WocConfig;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.task.GeneralTopologyContext;

/**
 * Which components' tasks a worker must reach to relay: the all-grouped components it hosts a task of. Their
 * workers are the members of the trees, and a member forwards to other members, which Storm would not connect it
 * to (it connects a worker only to the workers of the components its own components send to). The patched
 * {@code WorkerState.workerOutboundTasks} adds these components' tasks, so the members are connected, mapped and
 * given a transfer thread as any destination is.
 */
public final class RelayPeers {
    private RelayPeers() {
    }

    /** The components relayed to: targets of an all-grouped stream. */
    public static Set<String> relayedComponents(GeneralTopologyContext context) {
        Set<String> relayed = new HashSet<>();
        for (String component : context.getComponentIds()) {
            for (Map.Entry<GlobalStreamId, Grouping> source : context.getSources(component).entrySet()) {
                if (source.getValue().is_set_all()) {
                    relayed.add(component);
                }
            }
        }
        return relayed;
    }

    /** The components whose every task this worker, hosting {@code localTasks}, may forward to; none without a tree. */
    public static Set<String> peerComponents(Map<String, Object> topoConf, GeneralTopologyContext context,
                                             Collection<Integer> localTasks) {
        if (!WocConfig.isRelayed(topoConf)) {
            return Set.of();
        }
        Set<String> relayed = relayedComponents(context);
        Set<String> peers = new HashSet<>();
        for (int task : localTasks) {
            String component = context.getComponentId(task);
            if (relayed.contains(component)) {
                peers.add(component);
            }
        }
        return peers;
    }
}
