package io.whale.rdma.storm;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.metrics2.reporters.JmxStormReporter;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topology on a LocalCluster whose three workers talk through real messaging contexts
 * ({@code storm.local.mode.zmq}) selected with {@code whale.transport: rdma}, worker-oriented communication on:
 * every all-grouped tuple reaches every sink task, every tree is acked, and the traffic went through the RDMA
 * transport (its counters) as WOC frames (theirs).
 */
@Timeout(360)
class RdmaLocalClusterTest {
    private static final int TUPLES = 400;
    private static final int SINKS = 6;
    private static final int WORKERS = 3;

    /** Per run (topology name): what each sink task received, and what the spout saw acked. */
    static final Map<String, Map<Integer, Set<Integer>>> RECEIVED = new ConcurrentHashMap<>();
    static final Map<String, Set<Object>> ACKED = new ConcurrentHashMap<>();
    private static final String METRICS_DOMAIN = "whale.rdma.test";

    @Test
    void everySinkTaskGetsEveryTupleAcrossWorkersOverTheRdmaTransport(@TempDir Path dir) throws Exception {
        onCluster(dir, cluster -> runToCompletion(cluster, "rdma", () -> {
            // read while the workers (and their MBeans) are alive
            assertTrue(counter("rdma-messages-received") > 0, "worker traffic went through the RDMA transport");
            assertTrue(counter("woc-frames-received") > 0, "all-grouped tuples crossed workers as WOC frames");
            assertEquals(0, counter("rdma-messages-dropped"));
            assertEquals(0, counter("rdma-messages-malformed"));
        }));
    }

    /**
     * Issue 10: a worker restarted on its port failed to bind it. The supervisor has exactly {@link #WORKERS} ports
     * and each topology takes them all, so every run's workers bind the ports the previous run's workers had just
     * released.
     */
    @Test
    void shouldRestartWorkersOnTheSamePortsRepeatedly(@TempDir Path dir) throws Exception {
        onCluster(dir, cluster -> {
            for (int run = 0; run < 3; run++) {
                String name = "rdma-restart-" + run;
                runToCompletion(cluster, name, () -> { });
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() ->
                    cluster.getClusterInfo().get_topologies().stream().noneMatch(t -> t.get_name().equals(name)));
            }
        });
    }

    private interface ClusterBody {
        void run(LocalCluster cluster) throws Exception;
    }

    /** A ZooKeeper and a LocalCluster of one supervisor with {@link #WORKERS} ports, both stopped afterwards. */
    private static void onCluster(Path dir, ClusterBody body) throws Exception {
        ZooKeeperServer zookeeper = new ZooKeeperServer(dir.toFile(), dir.toFile(), 2000);
        ServerCnxnFactory zookeeperFactory = ServerCnxnFactory.createFactory(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        zookeeperFactory.startup(zookeeper);
        try (LocalCluster cluster = new LocalCluster.Builder()
                .withDaemonConf(Config.STORM_ZOOKEEPER_SERVERS, List.of("127.0.0.1"))
                .withDaemonConf(Config.STORM_ZOOKEEPER_PORT, zookeeperFactory.getLocalPort())
                .withDaemonConf(Config.STORM_LOCAL_DIR, Files.createDirectories(dir.resolve("storm")).toString())
                .withDaemonConf(Config.STORM_LOCAL_MODE_ZMQ, true)
                .withSupervisors(1)
                .withPortsPerSupervisor(WORKERS)
                .withSupervisorSlotPortMin(freePortRange(WORKERS))
                .build()) {
            body.run(cluster);
        } finally {
            zookeeperFactory.shutdown();
        }
    }

    /** Submits the topology as {@code name}, waits until every sink has every tuple and all are acked, kills it. */
    private static void runToCompletion(LocalCluster cluster, String name, Checks whileAlive) throws Exception {
        Config conf = new Config();
        conf.setNumWorkers(WORKERS);
        conf.setMaxSpoutPending(200);
        conf.put("whale.transport", "rdma");
        conf.put("whale.woc.enabled", true);
        conf.put(RdmaContext.BIND_HOST, "127.0.0.1");
        conf.put("whale.rdma.ring.bytes", 1024 * 1024);
        // Storm's JMX reporter publishes every worker's counters in this JVM's MBean server.
        conf.put(Config.TOPOLOGY_METRICS_REPORTERS, List.of(Map.of("class", JmxStormReporter.class.getName(),
            JmxStormReporter.JMX_DOMAIN, METRICS_DOMAIN)));

        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new Numbers(name), 1);
        builder.setBolt("sink", new Sink(name), SINKS).allGrouping("numbers");
        Map<Integer, Set<Integer>> received = RECEIVED.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
        Set<Object> acked = ACKED.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet());
        cluster.submitTopology(name, conf, builder.createTopology());
        try {
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).until(() ->
                acked.size() == TUPLES && received.size() == SINKS
                && received.values().stream().allMatch(numbers -> numbers.size() == TUPLES));
            whileAlive.check();
        } finally {
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts(name, now);
        }
    }

    private interface Checks {
        void check() throws Exception;
    }

    /** Sum of a counter over every worker of the run, read from the MBeans of Storm's JMX reporter. */
    private static long counter(String name) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        long sum = 0;
        for (ObjectName bean : server.queryNames(new ObjectName(METRICS_DOMAIN + ":*"), null)) {
            if (bean.getKeyProperty("name").endsWith("-" + name)) {
                sum += ((Number) server.getAttribute(bean, "Count")).longValue();
            }
        }
        return sum;
    }

    /**
     * A base port with {@code count} free ports after it on 127.0.0.1 (the workers' slots), below the kernel's
     * ephemeral range: there, UCX's TCP listener and the own end of any outgoing connection of this JVM may take a
     * worker's port before the worker binds it (as Storm's defaults, 6700.. or LocalCluster's 1024.., avoid).
     */
    private static int freePortRange(int count) throws IOException {
        int ephemeralLow = ephemeralRangeLow();
        java.util.SplittableRandom random = new java.util.SplittableRandom();
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = random.nextInt(10_000, Math.max(10_001, ephemeralLow - count));
            if (allFree(base, count)) {
                return base;
            }
        }
        throw new IOException("no " + count + " consecutive free ports on 127.0.0.1 below " + ephemeralLow);
    }

    private static int ephemeralRangeLow() {
        try {
            // readAllLines, not readString: /proc files report no size, and readString trusts it
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
                    .trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768; // Linux's default
        }
    }
    private static boolean allFree(int base, int count) {
        for (int port = base; port < base + count; port++) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                probe.getLocalPort();
            } catch (IOException taken) {
                return false;
            }
        }
        return true;
    }

    /** Emits 0..TUPLES-1 anchored (message id = the number), replays what fails. */
    public static class Numbers extends BaseRichSpout {
        private final String run;
        private SpoutOutputCollector collector;
        private int next;

        Numbers(String run) {
            this.run = run;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < TUPLES) {
                collector.emit(new Values(next), next);
                next++;
            }
        }

        @Override
        public void ack(Object msgId) {
            ACKED.get(run).add(msgId);
        }

        @Override
        public void fail(Object msgId) {
            collector.emit(new Values(msgId), msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Records what each task received, then acks. */
    public static class Sink extends BaseRichBolt {
        private final String run;
        private OutputCollector collector;
        private int task;

        Sink(String run) {
            this.run = run;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.task = context.getThisTaskId();
        }

        @Override
        public void execute(Tuple tuple) {
            RECEIVED.get(run).computeIfAbsent(task, t -> ConcurrentHashMap.newKeySet()).add(tuple.getInteger(0));
            collector.ack(tuple);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
