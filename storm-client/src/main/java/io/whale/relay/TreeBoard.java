package io.whale.relay;

import io.whale.multicast.MulticastTree;
import io.whale.security.WorkerZkRoots;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay trees this worker's sources send along, for {@code whale multicast}: the latest layout of each (source
 * task, tree), with the shaper's figures, written as a {@link MulticastBoard}'s JSON to an ephemeral ZooKeeper node of
 * the worker, {@value #ROOT}{@code /TOPOLOGY-ID/SUPERVISOR-ID:PORT} under {@code storm.zookeeper.root}, every
 * {@value #PERIOD_SECONDS} seconds by a thread of its own, never on the emit path. The node goes with the worker's
 * ZooKeeper session, and {@link #close} removes it when the worker stops.
 */
public final class TreeBoard implements AutoCloseable {
    public static final String ROOT = WorkerZkRoots.MULTICAST;
    static final int PERIOD_SECONDS = 2;
    private static final Logger LOG = LoggerFactory.getLogger(TreeBoard.class);

    private final TreeShaper shaper;
    private final Map<Long, Layout> layouts = new ConcurrentHashMap<>();
    private ScheduledExecutorService publisher;
    private IStateStorage storage;
    private String path;
    /** Written by the publisher thread only, read by close after it ended. */
    private volatile boolean published;
    private boolean failing;

    private record Layout(int sourceTask, RelayTrees.Tree tree) {
    }

    public TreeBoard(TreeShaper shaper) {
        this.shaper = shaper;
    }

    /** The ZooKeeper node of the worker {@code supervisorId:port} of {@code topologyId}. */
    public static String path(String topologyId, String supervisorId, int port) {
        return ROOT + "/" + topologyId + "/" + supervisorId + ":" + port;
    }

    /** {@code sourceTask} sends along {@code tree} from now on (a new tree, or a new epoch's layout of one). */
    public void laidOut(int sourceTask, RelayTrees.Tree tree) {
        layouts.put(((long) sourceTask << 32) | (tree.id() & 0xFFFFFFFFL), new Layout(sourceTask, tree));
    }

    /**
     * The board: this worker, the shape, and per (source task, tree) its members as host:port, each node's children
     * ({@code [0]} the source's) and, with a live shape, the controller's figures.
     *
     * @param hostOf a supervisor id's host
     */
    public MulticastBoard snapshot(String self, long nowMillis, Function<String, String> hostOf) {
        List<MulticastBoard.Source> trees = new ArrayList<>();
        for (Layout layout : new TreeMap<>(layouts).values()) {
            RelayTrees.Tree tree = layout.tree();
            List<String> members = new ArrayList<>();
            for (NodeInfo member : tree.members()) {
                members.add(hostOf.apply(member.get_node()) + ":" + member.get_port().iterator().next());
            }
            trees.add(new MulticastBoard.Source(layout.sourceTask(), tree.id(), tree.epoch(), members,
                MulticastTree.fromChildren(tree.children()), shaper.statistics(nowMillis, tree.members().size())));
        }
        return new MulticastBoard(self, shaper.describe(), nowMillis, trees);
    }

    /** Writes the board to ZooKeeper every {@value #PERIOD_SECONDS} s from now on, once a source has laid out a tree. */
    public synchronized void start(IStateStorage storage, List<ACL> acls, String topologyId, String supervisorId, int port,
                                   Function<String, String> hostOf) {
        this.storage = storage;
        this.path = path(topologyId, supervisorId, port);
        this.publisher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "whale-tree-board");
            t.setDaemon(true);
            return t;
        });
        publisher.scheduleWithFixedDelay(() -> publish(acls, hostOf.apply(supervisorId) + ":" + port, hostOf),
            0, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    private void publish(List<ACL> acls, String self, Function<String, String> hostOf) {
        if (layouts.isEmpty()) {
            return;
        }
        try {
            storage.set_ephemeral_node(path, snapshot(self, System.currentTimeMillis(), hostOf).toJson().getBytes(StandardCharsets.UTF_8), acls);
            published = true;
            if (failing) {
                failing = false;
                LOG.info("This worker's relay trees are published to ZooKeeper again ({})", path);
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.warn("Could not publish this worker's relay trees to ZooKeeper ({}); whale multicast will not show"
                         + " them until it works again", path, e);
            }
        }
    }

    /** Stops publishing and removes the worker's node. */
    @Override
    public synchronized void close() {
        if (publisher == null) {
            return;
        }
        publisher.shutdownNow();
        try {
            publisher.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        publisher = null;
        if (published) {
            try {
                storage.delete_node(path);
            } catch (RuntimeException e) {
                LOG.info("Could not remove {} from ZooKeeper; it goes with the worker's session", path, e);
            }
        }
    }
}
