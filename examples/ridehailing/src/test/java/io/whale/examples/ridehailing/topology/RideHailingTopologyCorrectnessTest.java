package io.whale.examples.ridehailing.topology;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.whale.examples.gen.GeneratorRun;
import io.whale.examples.gen.KafkaTopicSink;
import io.whale.examples.kafka.TopicAdmin;
import io.whale.examples.testing.KafkaStormFixture;
import io.whale.examples.ridehailing.gen.DidiGeneratorMain;
import io.whale.examples.ridehailing.gen.OrderGenerator;
import io.whale.examples.ridehailing.gen.TrajectoryGenerator;
import io.whale.examples.ridehailing.model.DriverLocation;
import io.whale.examples.ridehailing.model.Match;
import io.whale.examples.ridehailing.model.Order;
import io.whale.examples.ridehailing.topology.RideHailingTopology.Parallelism;
import org.apache.storm.Config;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end on a small generated data set: a real KRaft broker, the Kafka spouts, the topology on a
 * LocalCluster, compared order by order with {@link ReferenceDispatcher}.
 *
 * <p>To make the comparison exact, the trajectories are loaded and fully consumed (the drivers'
 * consumer group has committed everything, which the at-least-once spout only does for acked tuples)
 * before the first order is produced, so every matcher holds every driver's final position, and the
 * decision wait is long enough for every answer to be in hand.
 */
class RideHailingTopologyCorrectnessTest {
    private static final int DRIVERS = 300;
    private static final int POSITIONS_PER_DRIVER = 8;
    private static final int ORDERS = 300;
    private static final double RADIUS_M = 500;
    private static final int MATCHERS = 4;

    @TempDir
    static Path dir;
    private static KafkaStormFixture env;

    @BeforeAll
    static void startKafkaAndStorm() throws Exception {
        env = KafkaStormFixture.start(dir);
    }

    @AfterAll
    static void stopKafkaAndStorm() throws Exception {
        if (env != null) {
            env.close();
        }
    }

    @ParameterizedTest(name = "whale.woc.enabled={0}")
    @ValueSource(booleans = {false, true})
    void shouldGiveEveryOrderTheSameBestDriverAsTheReference(boolean woc) throws Exception {
        String run = "ridehailing-woc-" + woc;
        String driversTopic = run + "-drivers";
        String ordersTopic = run + "-orders";
        String bootstrap = env.bootstrapServers();
        TopicAdmin.createTopics(bootstrap, Map.of(driversTopic, 3, ordersTopic, 2));

        List<DriverLocation> trajectory = new ArrayList<>();
        new TrajectoryGenerator(21, DRIVERS, (long) DRIVERS * POSITIONS_PER_DRIVER, DidiGeneratorMain.DEFAULT_START_TS, 3)
                .forEachRemaining(trajectory::add);
        List<Order> orders = new ArrayList<>();
        new OrderGenerator(22, ORDERS, DidiGeneratorMain.DEFAULT_START_TS, 100_000).forEachRemaining(orders::add);
        Map<String, Match> expected = ReferenceDispatcher.dispatch(trajectory, orders, RADIUS_M);

        GeneratorRun.writeAll(trajectory.iterator(), trajectory.size(), new KafkaTopicSink(bootstrap, driversTopic), "drivers", false);

        TopologyBuilder builder = RideHailingTopology.builder(
                RideHailingTopology.driverSpout(bootstrap, driversTopic, run),
                RideHailingTopology.orderSpout(bootstrap, ordersTopic, run),
                new Parallelism(2, 1, MATCHERS, 2), 2);
        builder.setBolt("collector", new ResultCollectorBolt(run), 1).globalGrouping(RideHailingTopology.AGGREGATOR);
        builder.setBolt("answers", new AnswerCollectorBolt(run), 1).globalGrouping(RideHailingTopology.MATCHER);
        Config conf = new Config();
        conf.setNumWorkers(2);
        conf.setMessageTimeoutSecs(60);
        // Bounded in-flight tuples: LocalCluster's in-process transport halts the JVM on backpressure between workers.
        conf.setMaxSpoutPending(500);
        conf.put("whale.woc.enabled", woc);
        conf.put(RideHailingTopology.RADIUS_KEY, RADIUS_M);
        conf.put(RideHailingTopology.DECIDE_WAIT_KEY, 5_000);
        env.cluster().submitTopology(run, conf, builder.createTopology());
        try {
            await("all driver positions consumed and acked").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> TopicAdmin.consumerLag(bootstrap, run + "-drivers", driversTopic) == 0);

            GeneratorRun.writeAll(orders.iterator(), orders.size(), new KafkaTopicSink(bootstrap, ordersTopic), "orders", false);

            await("every order dispatched").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ResultCollectorBolt.RESULTS.getOrDefault(run, Map.of()).size() == ORDERS);
        } finally {
            KillOptions kill = new KillOptions();
            kill.set_wait_secs(0);
            env.cluster().killTopologyWithOpts(run, kill);
        }

        assertEquals(expected, ResultCollectorBolt.RESULTS.get(run));
        long matched = expected.values().stream().filter(Match::hasDriver).count();
        assertTrue(matched > ORDERS / 3 && matched < ORDERS, "the data set has orders with and without a driver: " + matched);
        Map<String, AtomicInteger> answers = AnswerCollectorBolt.ANSWERS.getOrDefault(run, Map.of());
        expected.values().stream().filter(m -> !m.hasDriver()).forEach(m ->
                assertNull(answers.get(m.orderId()), "no matcher answers order " + m.orderId() + ", nobody is near"));
        int answered = answers.values().stream().mapToInt(AtomicInteger::get).sum();
        assertTrue(answered >= matched && answered < matched * MATCHERS,
                "only matchers with a driver near answer: " + answered + " answers to " + matched + " matched orders");
    }
}
