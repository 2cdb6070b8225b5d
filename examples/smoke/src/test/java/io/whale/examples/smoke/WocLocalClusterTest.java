package io.whale.examples.smoke;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.ProcessSimulator;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.metric.IEventLogger;
import org.apache.storm.metrics2.reporters.StormReporter;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Worker-oriented communication on an in-process LocalCluster with three workers connected by Storm's Netty
 * transport (as on a real cluster, so frames cross real connections and credits come back): all-grouped emits of a
 * spout and of a relay bolt, and the relay's direct emits, reach every destination task exactly as with WOC
 * off, in the same order per (source task, stream, destination task), the anchored trees are acked, a failing
 * bolt leads to replays, and the frames really went through the WOC receive path (its metric, read through a
 * metrics reporter).
 */
class WocLocalClusterTest {
    private static final String WOC = "whale.woc.enabled";
    private static final int TUPLES = 300;
    private static final int SINKS = 9;
    private static final int RELAYS = 2;
    private static final Duration RUN_DEADLINE = Duration.ofSeconds(120);

    /** run name -> destination task -> what it received, in arrival order. */
    static final Map<String, Map<Integer, List<String>>> RECEIVED = new ConcurrentHashMap<>();
    static final Map<String, Set<Object>> ACKED = new ConcurrentHashMap<>();
    static final Map<String, AtomicInteger> FAILED = new ConcurrentHashMap<>();
    static final Map<String, Set<Object>> FAILED_ONCE = new ConcurrentHashMap<>();
    /** worker metric registries by topology id, captured by {@link CapturingReporter}. */
    static final Map<MetricRegistry, String> REGISTRIES = new ConcurrentHashMap<>();
    /** run name -> components whose emits the event logger saw. */
    static final Map<String, Set<String>> LOGGED_EVENTS = new ConcurrentHashMap<>();
    /** run name -> emits that threw half-way in a relay and were caught there. */
    static final Map<String, AtomicInteger> POISON_CAUGHT = new ConcurrentHashMap<>();
    private static final int POISON_EVERY = 7;

    private static LocalCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = new LocalCluster.Builder().withDaemonConf(Map.of(Config.STORM_LOCAL_MODE_ZMQ, true)).build();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
    }

    @Test
    void everyDestinationTaskReceivesTheSameTuplesInTheSameOrderWithWocOnAndOff() throws Exception {
        Map<Integer, List<String>> off = run("woc-off", false, Mode.HEALTHY);
        Map<Integer, List<String>> on = run("woc-on", true, Mode.HEALTHY);

        assertEquals(SINKS, on.size());
        for (Map.Entry<Integer, List<String>> task : off.entrySet()) {
            assertEquals(bySource(task.getValue()), bySource(on.get(task.getKey())),
                "task " + task.getKey() + " must receive the same tuples in the same order per source task");
        }
        assertTrue(wocCounter("woc-on", "woc-frames-received") > 0, "the WOC-on run sent BatchTuple frames");
        assertEquals(0, wocCounter("woc-on", "woc-frames-malformed"));
        assertEquals(-1, wocCounter("woc-off", "woc-frames-received"), "WOC off registers no WOC metric");
        assertTrue(wocCounter("woc-on", "woc-acks-sent") > 0, "acks to the ackers of other workers were combined and sent");
        assertTrue(wocCounter("woc-on", "woc-acks-sent") < wocCounter("woc-on", "woc-acks-offered"),
            "fewer acks left the workers than their tasks sent: " + wocCounter("woc-on", "woc-acks-sent") + " of "
                + wocCounter("woc-on", "woc-acks-offered"));
        assertEquals(-1, wocCounter("woc-off", "woc-acks-offered"), "ack combining follows WOC: off with it");
    }

    @Test
    void aFailingBoltLeadsToReplaysUntilEveryTreeIsAckedWithAckCombiningOnAndOff() throws Exception {
        run("woc-flaky-uncombined", true, Mode.FLAKY_UNCOMBINED);
        run("woc-flaky", true, Mode.FLAKY);
        for (String run : List.of("woc-flaky-uncombined", "woc-flaky")) {
            assertEquals(TUPLES / 10, FAILED.get(run).get(), run + ": every failed tree is failed at the spout exactly once");
            assertTrue(wocCounter(run, "woc-frames-received") > 0);
        }
        assertEquals(-1, wocCounter("woc-flaky-uncombined", "woc-acks-offered"), "whale.woc.ack.combine: false sends every ack as Storm does");
        assertTrue(wocCounter("woc-flaky", "woc-acks-sent") > 0);
    }

    @Test
    void shouldAckEveryTreeWhenBoltsHoldTuplesAndAckThemInAnotherOrder() throws Exception {
        Map<Integer, List<String>> received = run("woc-late-acks", true, Mode.LATE_ACKS);
        assertCompleteAndInOrder(received);
        assertTrue(wocCounter("woc-late-acks", "woc-acks-sent") > 0, "the late acks went through the combining");
    }

    @Test
    void shouldAckEveryTreeWhenBoltsAckFromAThreadOfTheirOwn() throws Exception {
        Map<Integer, List<String>> received = run("woc-thread-acks", true, Mode.ACKS_FROM_ANOTHER_THREAD);
        assertCompleteAndInOrder(received);
        assertTrue(wocCounter("woc-thread-acks", "woc-acks-sent") > 0, "the other thread's acks went through the combining");
    }

    @Test
    void shouldDeliverAndAckEverythingAfterAnEmitThrewHalfWay() throws Exception {
        String name = "woc-poisoned";
        POISON_CAUGHT.put(name, new AtomicInteger());
        Map<Integer, List<String>> received = run(name, true, Mode.POISONED);

        assertEquals(TUPLES / POISON_EVERY + 1, POISON_CAUGHT.get(name).get() / RELAYS,
            "every relay task's emit of each poisoned number threw half-way, and the bolt caught it");
        assertTrue(received.values().stream().allMatch(l -> l.size() == TUPLES * (1 + 2 * RELAYS)),
            "the direct emits, acks and all-grouped emits after each throw were all delivered");
        assertTrue(wocCounter(name, "woc-frames-received") > 0);
    }

    @Test
    void shouldDeliverAndAckEverythingWithIdleBoltsSleepingInsteadOfParking() throws Exception {
        Map<Integer, List<String>> received = run("woc-sleep", true, Mode.SLEEP_WHEN_IDLE);
        assertTrue(received.values().stream().allMatch(l -> l.size() == TUPLES * (1 + 2 * RELAYS)),
            "every sink task got every tuple of the spout and of both relays with idle bolts sleeping (no park level)");
    }

    @Test
    void shouldRefuseAQuotedWhaleBooleanAtSubmitNamingTheKey() throws Exception {
        Config conf = new Config();
        conf.put(WOC, "true");
        InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
            () -> cluster.submitTopology("woc-quoted", conf, topology("woc-quoted", Mode.HEALTHY)));
        assertTrue(e.get_msg().startsWith("whale.woc.enabled: \"true\" (a string) is not accepted"), e.get_msg());
        assertFalse(cluster.getClusterInfo().get_topologies().stream().anyMatch(t -> t.get_name().equals("woc-quoted")),
            "no topology, so no worker, was started");
    }

    @Test
    void emitsStillReachTheEventLoggerWithWocOn() throws Exception {
        String name = "woc-events";
        LOGGED_EVENTS.put(name, ConcurrentHashMap.newKeySet());
        run(name, true, Mode.EVENT_LOGGED);
        assertTrue(wocCounter(name, "woc-frames-received") > 0);
    }

    @Test
    void shouldDeliverEverythingInOrderWithOneFrameInFlightPerWorker() throws Exception {
        String name = "woc-window";
        Map<Integer, List<String>> received = run(name, true, Mode.WINDOW_OF_ONE);

        assertCompleteAndInOrder(received);
        assertTrue(wocCounter(name, "woc-frames-held") > 0, "a window of one tuple (one frame at a time) made emits wait for credit");
        assertTrue(wocCounter(name, "woc-frames-received") > 0);
    }

    /**
     * Along a relay tree over the four workers (binomial; nonblocking with d* = 1, a chain), the spout's and both
     * relay bolts' all-grouped emits (two of them rooted in other workers, so the trees relay through each other's
     * roots) reach every sink task complete and in order, every anchored tree is acked, and members really
     * forwarded: nothing lost, nothing delivered twice.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mode.class, names = {"BINOMIAL_TREE", "CHAIN_TREE"})
    void shouldDeliverAndAckEverythingInOrderAlongARelayTree(Mode tree) throws Exception {
        String name = "relay-" + tree.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        Map<Integer, List<String>> received = run(name, true, tree);

        assertCompleteAndInOrder(received);
        assertTrue(wocCounter(name, "relay-frames-forwarded") > 0, "members forwarded frames to their children");
        assertTrue(wocCounter(name, "relay-frames-received") > wocCounter(name, "relay-frames-sent"),
            "more frames arrived than roots sent: the rest were forwarded by members");
        assertEquals(0, wocCounter(name, "relay-tuples-lost"));
        assertEquals(0, wocCounter(name, "relay-duplicates-dropped"));
    }

    /**
     * With the tree switched between a chain and the full tree every 20 ms by each root (hundreds of switches a run,
     * a few dozen tuples apart), every sink task still gets every tuple once and in order, and every tree is acked:
     * no frame of a new shape overtakes one of the old.
     */
    @Test
    void shouldDeliverAndAckEverythingInOrderAcrossLiveSwitches() throws Exception {
        String name = "relay-live-switching";
        Map<Integer, List<String>> received = run(name, true, Mode.LIVE_SWITCHING_TREE);

        assertCompleteAndInOrder(received);
        assertTrue(wocCounter(name, "relay-switches-up") > 0 && wocCounter(name, "relay-switches-down") > 0,
            "the roots switched both ways: up " + wocCounter(name, "relay-switches-up") + ", down "
                + wocCounter(name, "relay-switches-down"));
        assertEquals(0, wocCounter(name, "relay-tuples-lost"));
        assertEquals(0, wocCounter(name, "relay-duplicates-dropped"));
    }

    private static void assertCompleteAndInOrder(Map<Integer, List<String>> received) {
        assertTrue(received.values().stream().allMatch(l -> l.size() == TUPLES * (1 + 2 * RELAYS)),
            "every sink task got every tuple of the spout and of both relays");
        for (Map.Entry<Integer, List<String>> task : received.entrySet()) {
            for (Map.Entry<String, List<String>> source : bySource(task.getValue()).entrySet()) {
                List<Integer> numbers = source.getValue().stream()
                    .map(r -> Integer.parseInt(r.substring(r.indexOf('[') + 1).split("[,\\]]")[0].trim())).toList();
                for (int i = 1; i < numbers.size(); i++) {
                    assertTrue(numbers.get(i) > numbers.get(i - 1),
                        "task " + task.getKey() + " got " + source.getKey() + " out of order: " + numbers);
                }
            }
        }
    }

    enum Mode { HEALTHY, FLAKY, FLAKY_UNCOMBINED, LATE_ACKS, ACKS_FROM_ANOTHER_THREAD, EVENT_LOGGED, POISONED, SLEEP_WHEN_IDLE, WINDOW_OF_ONE, BINOMIAL_TREE, CHAIN_TREE, LIVE_SWITCHING_TREE }

    /** Runs the topology until every tree is acked and every sink task has everything; returns what the sinks got. */
    private static Map<Integer, List<String>> run(String name, boolean woc, Mode mode) throws Exception {
        RECEIVED.put(name, new ConcurrentHashMap<>());
        ACKED.put(name, ConcurrentHashMap.newKeySet());
        FAILED.put(name, new AtomicInteger());
        FAILED_ONCE.put(name, ConcurrentHashMap.newKeySet());

        Config conf = new Config();
        conf.setNumWorkers(3);
        conf.setMaxSpoutPending(100);
        conf.setMessageTimeoutSecs(60);
        conf.put(WOC, woc);
        conf.put(Config.TOPOLOGY_METRICS_REPORTERS, List.of(Map.of("class", CapturingReporter.class.getName())));
        conf.put(Config.TOPOLOGY_TESTING_ALWAYS_TRY_SERIALIZE, true);
        if (mode == Mode.FLAKY_UNCOMBINED) {
            conf.put("whale.woc.ack.combine", false);
        }
        if (mode == Mode.SLEEP_WHEN_IDLE) {
            conf.put(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL2_COUNT, 0); // what conf/storm.yaml ships
        }
        if (mode == Mode.WINDOW_OF_ONE) {
            conf.put("whale.woc.window.tuples", 1);
        }
        if (mode == Mode.BINOMIAL_TREE || mode == Mode.CHAIN_TREE) {
            conf.setNumWorkers(4);
            conf.put("whale.multicast.structure", mode == Mode.BINOMIAL_TREE ? "binomial" : "nonblocking");
            conf.put("whale.multicast.max.outdegree", 1);
        }
        if (mode == Mode.LIVE_SWITCHING_TREE) {
            conf.setNumWorkers(4);
            conf.put("whale.multicast.structure", "nonblocking");
            conf.put("whale.multicast.forced.switch.ms", 20);
        }
        if (mode == Mode.EVENT_LOGGED) {
            conf.setNumEventLoggers(1);
            // by binary name: Config.registerEventLogger writes the canonical name, which nested classes cannot load by
            conf.put(Config.TOPOLOGY_EVENT_LOGGER_REGISTER,
                List.of(Map.of("class", RecordingEventLogger.class.getName(), "arguments", Map.of("run", name))));
        }
        awaitNoWorkerLeft();
        submit(name, conf, topology(name, mode));
        try {
            if (mode == Mode.EVENT_LOGGED) {
                cluster.getNimbus().debug(name, "numbers", true, 100);
                cluster.getNimbus().debug(name, "relay", true, 100);
                await().atMost(RUN_DEADLINE).pollInterval(Duration.ofMillis(250))
                    .until(() -> LOGGED_EVENTS.get(name).containsAll(Set.of("numbers", "relay")));
                return RECEIVED.get(name);
            }
            int expectedPerSink = mode == Mode.FLAKY || mode == Mode.FLAKY_UNCOMBINED ? -1 : TUPLES * (1 + 2 * RELAYS);
            await().atMost(RUN_DEADLINE).pollInterval(Duration.ofMillis(250)).until(() ->
                ACKED.get(name).size() == TUPLES
                && RECEIVED.get(name).size() == SINKS
                && (expectedPerSink < 0 || RECEIVED.get(name).values().stream().allMatch(l -> l.size() == expectedPerSink)));
        } finally {
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts(name, now);
        }
        if (mode != Mode.FLAKY && mode != Mode.FLAKY_UNCOMBINED && mode != Mode.EVENT_LOGGED) {
            assertEquals(0, FAILED.get(name).get(), "no tree fails in a healthy run");
        }
        return RECEIVED.get(name);
    }

    /**
     * Submits, and once more when Nimbus's blob store lost a race with its own cleanup: LocalFsBlobStore's periodic
     * cleanup deletes a key directory it finds empty (FileBlobStoreImpl.fullCleanup) while a new blob is being created in
     * it, and the submit fails with "No such file or directory" (seen once in CI, 2026-11-27); nothing of the topology was
     * registered then.
     */
    private static void submit(String name, Config conf, StormTopology topology) throws Exception {
        try {
            cluster.submitTopology(name, conf, topology);
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (!(cause instanceof IOException) || !"No such file or directory".equals(cause.getMessage())) {
                throw e;
            }
            cluster.submitTopology(name, conf, topology);
        }
    }

    /**
     * Waits for the workers of the topologies killed before to be shut down (LocalCluster's in-process workers). The
     * slots keep their ports, so a new worker that starts while an old one still listens on a port connects to the
     * old worker, which then exits under it; then the new one may never see all its connections ready.
     */
    private static void awaitNoWorkerLeft() {
        await().atMost(RUN_DEADLINE).pollInterval(Duration.ofMillis(100)).until(() ->
            cluster.getClusterInfo().get_topologies().isEmpty() && ProcessSimulator.getAllProcessHandles().isEmpty());
    }

    private static StormTopology topology(String run, Mode mode) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new Numbers(run, mode == Mode.EVENT_LOGGED ? Integer.MAX_VALUE : TUPLES), 1);
        builder.setBolt("relay", new Relay(mode == Mode.POISONED ? run : null), RELAYS).allGrouping("numbers");
        builder.setBolt("sink", new Sink(run, mode), SINKS).allGrouping("numbers").allGrouping("relay", "relayed")
            .directGrouping("relay", "direct");
        return builder.createTopology();
    }

    private static Map<String, List<String>> bySource(List<String> received) {
        Map<String, List<String>> bySource = new TreeMap<>();
        for (String r : received) {
            bySource.computeIfAbsent(r.substring(0, r.indexOf('|', r.indexOf('|') + 1)), k -> new ArrayList<>()).add(r);
        }
        return bySource;
    }

    /** Sum of a WOC counter over the run's workers, -1 if no worker registered it. */
    private static long wocCounter(String run, String name) {
        long sum = -1;
        for (Map.Entry<MetricRegistry, String> e : REGISTRIES.entrySet()) {
            if (!e.getValue().startsWith(run + "-")) {
                continue;
            }
            for (Map.Entry<String, Counter> c : e.getKey().getCounters().entrySet()) {
                if (c.getKey().endsWith("-" + name)) {
                    sum = Math.max(sum, 0) + c.getValue().getCount();
                }
            }
        }
        return sum;
    }

    /** Hands each worker's metric registry to the test. */
    public static class CapturingReporter implements StormReporter {
        @Override
        public void prepare(MetricRegistry registry, Map<String, Object> topoConf, Map<String, Object> reporterConf) {
            REGISTRIES.put(registry, (String) topoConf.get(Config.STORM_ID));
        }

        @Override
        public void start() {
        }

        @Override
        public void stop() {
        }

        @Override
        public void close() {
        }
    }

    /** Records which components' emits reach the event logger. */
    public static class RecordingEventLogger implements IEventLogger {
        private String run;

        @Override
        public void prepare(Map<String, Object> conf, Map<String, Object> arguments, TopologyContext context) {
            run = (String) arguments.get("run");
        }

        @Override
        public void log(EventInfo e) {
            LOGGED_EVENTS.get(run).add(e.getComponent());
        }

        @Override
        public void close() {
        }
    }

    /** The smoke spout (0..count-1 anchored, replays what fails), recording acks and fails per run. */
    public static class Numbers extends NumberSpout {
        private final String run;

        Numbers(String run, int count) {
            super(count, 0);
            this.run = run;
        }

        @Override
        public void ack(Object msgId) {
            ACKED.get(run).add(msgId);
        }

        @Override
        public void fail(Object msgId) {
            FAILED.get(run).incrementAndGet();
            super.fail(msgId);
        }
    }

    /**
     * Re-emits every number, anchored, to all sinks on its own stream (the bolt side of the WOC send path), and
     * once more to each sink task with emitDirect: single-destination emits, which must keep the stock path.
     * When poisoned, each number divisible by {@link #POISON_EVERY} is first emitted (unanchored) to all sinks with a value
     * no serializer takes: the emit throws half-way (at the first local copy, the test conf serializes those
     * too) and the relay catches it, as a bolt guarding against bad records would, then emits as usual.
     */
    public static class Relay extends BaseRichBolt {
        private final String poisonedRun;
        private transient OutputCollector collector;
        private transient int task;
        private transient List<Integer> sinks;

        Relay(String poisonedRun) {
            this.poisonedRun = poisonedRun;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.task = context.getThisTaskId();
            this.sinks = context.getComponentTasks("sink");
        }

        @Override
        public void execute(Tuple input) {
            if (poisonedRun != null && input.getInteger(0) % POISON_EVERY == 0) {
                try {
                    collector.emit("relayed", new Values(input.getInteger(0), new NotSerializable()));
                } catch (RuntimeException expected) {
                    POISON_CAUGHT.get(poisonedRun).incrementAndGet();
                }
            }
            for (int sink : sinks) {
                collector.emitDirect(sink, "direct", input, new Values(input.getInteger(0), task));
            }
            collector.emit("relayed", input, new Values(input.getInteger(0), task));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream("relayed", new Fields("n", "relay"));
            declarer.declareStream("direct", true, new Fields("n", "relay"));
        }
    }

    /** A value neither Kryo nor Java serialization can write. */
    static final class NotSerializable {
    }

    /**
     * Records (source task, stream, values) in arrival order; when flaky, its first task fails every tenth number once;
     * with late acks, it holds what it gets and acks every {@link #HELD} tuples newest first; acking from another thread,
     * a thread of its own acks what it got, synchronized on the collector as Storm asks of a bolt that does so.
     */
    public static class Sink extends BaseRichBolt {
        private static final int HELD = 5;
        private final String run;
        private final boolean flaky;
        private final boolean lateAcks;
        private final boolean threadAcks;
        private transient OutputCollector collector;
        private transient ExecutorService acker;
        private transient List<String> received;
        private transient boolean failing;
        private transient List<Tuple> held;

        Sink(String run, Mode mode) {
            this.run = run;
            this.flaky = mode == Mode.FLAKY || mode == Mode.FLAKY_UNCOMBINED;
            this.lateAcks = mode == Mode.LATE_ACKS;
            this.threadAcks = mode == Mode.ACKS_FROM_ANOTHER_THREAD;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.received = Collections.synchronizedList(new ArrayList<>());
            this.failing = flaky && context.getThisTaskIndex() == 0;
            this.held = new ArrayList<>();
            if (threadAcks) {
                this.acker = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "sink-acker-" + context.getThisTaskId());
                    t.setDaemon(true);
                    return t;
                });
            }
            RECEIVED.get(run).put(context.getThisTaskId(), received);
        }

        @Override
        public void cleanup() {
            if (acker != null) {
                acker.shutdownNow();
            }
        }

        @Override
        public void execute(Tuple input) {
            received.add(input.getSourceTask() + "|" + input.getSourceStreamId() + "|" + input.getValues());
            int n = input.getInteger(0);
            if (failing && input.getSourceStreamId().equals("default") && n % 10 == 0 && FAILED_ONCE.get(run).add(n)) {
                collector.fail(input);
            } else if (threadAcks) {
                acker.execute(() -> {
                    synchronized (collector) {
                        collector.ack(input);
                    }
                });
            } else if (lateAcks) {
                held.add(input);
                if (held.size() == HELD) {
                    for (int i = HELD - 1; i >= 0; i--) {
                        collector.ack(held.get(i));
                    }
                    held.clear();
                }
            } else {
                collector.ack(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
