package io.whale.woc;

import io.whale.ack.AckCombiner;
import io.whale.config.WhaleConfig;
import io.whale.config.WocConfig;
import io.whale.flow.CreditStall;
import io.whale.flow.CreditedConnection;
import io.whale.flow.FrameWindow;
import io.whale.relay.RelayMember;
import io.whale.relay.RelayMetrics;
import io.whale.relay.RelaySettings;
import io.whale.relay.TreeBoard;
import io.whale.relay.TreeShaper;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.daemon.worker.WorkerState;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.shade.org.apache.zookeeper.data.ACL;
import org.apache.storm.utils.JCQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the WOC send and receive paths of one worker share: the switch, the metrics, and handles on the
 * worker's transfer queue, its per-task remote backpressure flags, its task-to-worker map, the
 * {@link FrameWindow}s of its connections and its {@link AckCombiner}. WorkerState
 * creates one per worker; with the switch off it registers nothing and every WOC hook returns at once.
 */
public final class WocWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WocWorker.class);

    private final boolean enabled;
    private final WocMetrics metrics;
    private final JCQueue transferQueue;
    private final AtomicBoolean[] remoteBackPressure;
    private final AtomicReference<Map<Integer, NodeInfo>> taskToNodePort;
    private final Function<NodeInfo, FrameWindow> frameWindows;
    private final Function<NodeInfo, IConnection> connections;
    private final TreeShaper shaper;
    private final RelayMember relay;
    /** Runs the relay's {@link RelayMember#checkStalls}; null without a tree or a stall bound. */
    private final ScheduledExecutorService stallWatch;
    private final TreeBoard treeBoard;
    private final AckCombiner acks;
    /** Racing executors may each build it once; any of them is right for the map it was built from. */
    private volatile TaskWorkers taskWorkers = TaskWorkers.of(null);

    public WocWorker(Map<String, Object> topologyConf, StormMetricRegistry registry, JCQueue transferQueue, AtomicBoolean[] remoteBackPressure,
                     AtomicReference<Map<Integer, NodeInfo>> taskToNodePort,
                     AtomicReference<Map<NodeInfo, IConnection>> connections) {
        this(topologyConf, registry, transferQueue, remoteBackPressure, taskToNodePort,
             node -> windowOf(connections.get().get(node)), node -> connections.get().get(node));
    }

    WocWorker(Map<String, Object> topologyConf, StormMetricRegistry registry, JCQueue transferQueue,
              AtomicBoolean[] remoteBackPressure, AtomicReference<Map<Integer, NodeInfo>> taskToNodePort,
              Function<NodeInfo, FrameWindow> frameWindows, Function<NodeInfo, IConnection> connections) {
        this.enabled = WocConfig.isEnabled(topologyConf);
        this.metrics = enabled ? new WocMetrics(registry, frameWindows) : null;
        this.transferQueue = transferQueue;
        this.remoteBackPressure = remoteBackPressure;
        this.taskToNodePort = taskToNodePort;
        this.frameWindows = frameWindows;
        this.connections = connections;
        this.shaper = RelaySettings.shaper(topologyConf, () -> transferQueue.size(), registry);
        if (shaper != null) {
            shaper.whenReshaped(this::pathsChanged);
        }
        long stallNanos = topologyConf == null ? 0 : CreditStall.boundNanos(topologyConf);
        this.relay = shaper == null ? null : new RelayMember(RelayMember.newIncarnation(), transferQueue,
            taskToNodePort::get, connections, shaper, held -> new RelayMetrics(registry, held::get),
            System::nanoTime, this::isUnderBackPressure, stallNanos);
        if (relay != null) {
            relay.holdUntilActive();
            relay.bufferForStalledMembers(CreditStall.bufferBytes(topologyConf));
        }
        this.stallWatch = relay == null || stallNanos == 0 ? null : watchStalls(relay, stallNanos);
        this.treeBoard = shaper == null ? null : new TreeBoard(shaper);
        this.acks = AckCombiner.create(topologyConf, registry, transferQueue, remoteBackPressure);
        LOG.info("Worker-oriented communication ({}): {}; multicast ({}): {}; ack combining ({}): {}", WhaleConfig.WOC_ENABLED,
                 enabled ? "on" : "off", WhaleConfig.MULTICAST_STRUCTURE, shaper == null ? "sequential" : shaper.describe(),
                 WhaleConfig.WOC_ACK_COMBINE, acks == AckCombiner.OFF ? "off" : "on");
        Object structure = topologyConf == null ? null : topologyConf.get(WhaleConfig.MULTICAST_STRUCTURE);
        if (!enabled && structure != null && !"sequential".equalsIgnoreCase(structure.toString().trim())) {
            LOG.warn("{} is {} but {} is off: a relay tree carries WOC frames, so broadcasts go the stock way",
                     WhaleConfig.MULTICAST_STRUCTURE, structure, WhaleConfig.WOC_ENABLED);
        }
    }

    /** A daemon thread running the relay's {@link RelayMember#checkStalls} four times per stall bound. */
    private static ScheduledExecutorService watchStalls(RelayMember relay, long stallNanos) {
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "whale-relay-stall-watch");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(stallNanos / 4, TimeUnit.MILLISECONDS.toNanos(10));
        watch.scheduleWithFixedDelay(() -> {
            try {
                relay.checkStalls();
            } catch (RuntimeException e) {
                LOG.warn("The relay's stall watch failed once; it runs again in {} ms", TimeUnit.NANOSECONDS.toMillis(period), e);
            }
        }, period, period, TimeUnit.NANOSECONDS);
        return watch;
    }

    /** The shape of the trees a broadcast travels along, or null for one frame from the source to each destination worker. */
    public TreeShaper shaper() {
        return shaper;
    }

    /** Storm activated the worker: every connection it needs is up, so its relay forwards what it held meanwhile. */
    public void activated() {
        if (relay != null) {
            relay.activated();
        }
    }

    /** This worker's part in the relay trees; null without a tree. */
    public RelayMember relay() {
        return relay;
    }

    /** The ack combining of this worker's executors, which also counts what the dispatcher delivers. */
    public AckCombiner acks() {
        return acks;
    }

    /** The trees this worker's sources send along, for {@code whale multicast}; null without a tree. */
    public TreeBoard treeBoard() {
        return treeBoard;
    }

    /**
     * With relay trees on, writes this worker's trees to ZooKeeper from now on ({@link TreeBoard}), for
     * {@code whale multicast}.
     *
     * @param hostOf a supervisor id's host
     */
    public void publishTrees(IStateStorage storage, List<ACL> acls, String topologyId, String supervisorId, int port,
                             Function<String, String> hostOf) {
        if (treeBoard != null) {
            treeBoard.start(storage, acls, topologyId, supervisorId, port, hostOf);
        }
    }

    /**
     * With relay trees on, how the relay asks for a connection refresh now: when a frame names a member this worker
     * has no connection to, as a restarted worker is until the refresh ({@link RelayMember#refreshConnectionsWith}).
     */
    public void refreshConnectionsWith(Runnable refresh) {
        if (relay != null) {
            relay.refreshConnectionsWith(refresh);
        }
    }

    /** The ack combining of a worker's executors; {@link AckCombiner#OFF} without a WOC state (a test's worker). */
    public static AckCombiner acksOf(WorkerState worker) {
        WocWorker woc = worker.getWoc();
        return woc == null ? AckCombiner.OFF : woc.acks;
    }

    /**
     * Stops what {@link #publishTrees} started, the relay's stall watch and the ack combining (sending what it holds); the
     * worker is shutting down.
     */
    @Override
    public void close() {
        try {
            acks.close();
        } finally {
            if (stallWatch != null) {
                stallWatch.shutdownNow();
            }
            if (treeBoard != null) {
                treeBoard.close();
            }
        }
    }

    public IConnection connection(NodeInfo node) {
        return connections.apply(node);
    }

    public boolean isEnabled() {
        return enabled;
    }

    /** Null when WOC is off. */
    public WocMetrics metrics() {
        return metrics;
    }

    public JCQueue transferQueue() {
        return transferQueue;
    }

    public boolean isUnderBackPressure(int remoteTask) {
        return remoteBackPressure[remoteTask].get();
    }

    Map<Integer, NodeInfo> taskToNodePort() {
        return taskToNodePort.get();
    }

    /** The current assignment's workers by task, built again when the worker replaces its task-to-worker map. */
    public TaskWorkers taskWorkers() {
        Map<Integer, NodeInfo> current = taskToNodePort.get();
        TaskWorkers known = taskWorkers;
        if (!known.isOf(current)) {
            known = TaskWorkers.of(current);
            taskWorkers = known;
        }
        return known;
    }

    /** The frame window of the connection to {@code node}: a {@link CreditedConnection} has one, the local transport none. */
    public FrameWindow frameWindow(NodeInfo node) {
        return frameWindows.apply(node);
    }

    /** The trees were reshaped: every peer's window measures its round trip again (a peer that kept its subtree pays one). */
    private void pathsChanged() {
        TaskWorkers workers = taskWorkers();
        for (int i = 0; i < workers.count(); i++) {
            frameWindow(workers.worker(i)).pathChanged();
        }
    }

    private static FrameWindow windowOf(IConnection connection) {
        return connection instanceof CreditedConnection credited ? credited.frameWindow() : FrameWindow.UNBOUNDED;
    }
}
