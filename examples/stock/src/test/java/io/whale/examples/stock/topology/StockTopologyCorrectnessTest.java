package io.whale.examples.stock.topology;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.whale.examples.gen.GeneratorRun;
import io.whale.examples.gen.KafkaTopicSink;
import io.whale.examples.kafka.TopicAdmin;
import io.whale.examples.report.ThroughputLatencyReporter;
import io.whale.examples.testing.KafkaStormFixture;
import io.whale.examples.stock.gen.NasdaqGenerator;
import io.whale.examples.stock.gen.NasdaqGeneratorMain;
import io.whale.examples.stock.model.StockRecord;
import io.whale.examples.stock.model.TradingRules;
import io.whale.examples.stock.topology.StockTopology.Parallelism;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * End to end on a small generated data set: a real KRaft broker, the Kafka spout, the topology on a
 * LocalCluster, compared with {@link ReferenceExchange}: the same deals and the same trading volume
 * per symbol and window. The matching rule does not depend on arrival order, and the lateness is set
 * beyond the data's time span so no window is dropped early, which makes the comparison exact. The reporter's count
 * of the records the topology got through reaches every record fed, the rule breakers split dropped included.
 */
class StockTopologyCorrectnessTest {
    private static final int RECORDS = 8_000;
    private static final long WINDOW_MS = 1_000;

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
    void shouldFindTheSameDealsAndVolumesAsTheReference(boolean woc) throws Exception {
        String run = "stock-woc-" + woc;
        String bootstrap = env.bootstrapServers();
        TopicAdmin.createTopics(bootstrap, Map.of(run, 3));
        List<StockRecord> records = new ArrayList<>();
        new NasdaqGenerator(31, RECORDS, NasdaqGeneratorMain.DEFAULT_START_MILLIS, 400, 1.0, 0.02).forEachRemaining(records::add);
        ReferenceExchange expected = new ReferenceExchange(records, WINDOW_MS);
        GeneratorRun.writeAll(records.iterator(), records.size(), new KafkaTopicSink(bootstrap, run), "stock", false);

        TopologyBuilder builder = StockTopology.builder(StockTopology.kafkaSource(bootstrap, run, run),
                new Parallelism(1, 2, 4, 2), 2);
        builder.setBolt("collector", new ResultCollectorBolt(run), 1)
                .globalGrouping(StockTopology.AGGREGATOR)
                .globalGrouping(StockTopology.AGGREGATOR, StockTopology.VOLUME_STREAM);
        Config conf = new Config();
        conf.setNumWorkers(2);
        conf.setMessageTimeoutSecs(60);
        // Bounded in-flight tuples: LocalCluster's in-process transport halts the JVM on backpressure between workers.
        conf.setMaxSpoutPending(500);
        conf.put("whale.woc.enabled", woc);
        conf.put(StockTopology.WINDOW_KEY, WINDOW_MS);
        conf.put(StockTopology.LATENESS_KEY, 86_400_000);
        Path report = dir.resolve(run + ".jsonl");
        conf.put(ThroughputLatencyReporter.REPORT_FILE_KEY, report.toString());
        env.cluster().submitTopology(run, conf, builder.createTopology());
        try {
            await("every deal settled").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> ResultCollectorBolt.DEALS.getOrDefault(run, Set.of()).size() >= expected.deals.size());
            await("every record consumed and acked").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> TopicAdmin.consumerLag(bootstrap, run, run) == 0);
            await("every record counted as got through").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> recordsGotThrough(report) == RECORDS);
        } finally {
            KillOptions kill = new KillOptions();
            kill.set_wait_secs(0);
            env.cluster().killTopologyWithOpts(run, kill);
        }

        assertEquals(expected.deals, ResultCollectorBolt.DEALS.get(run));
        assertEquals(expected.volumes, ResultCollectorBolt.VOLUMES.get(run));
        long rejected = records.stream().filter(r -> !TradingRules.allows(r)).count();
        assertTrue(rejected > 0 && expected.deals.size() > 1_000,
                "the data set has rule breakers and many deals: " + rejected + ", " + expected.deals.size());
    }

    /** {@code total_records} of the reporter's last line (-1 before it wrote one with progress). */
    private static long recordsGotThrough(Path report) throws Exception {
        if (!Files.exists(report)) {
            return -1;
        }
        List<String> lines = Files.readAllLines(report);
        return lines.isEmpty() ? -1 : new ObjectMapper().readTree(lines.get(lines.size() - 1)).path("total_records").asLong(-1);
    }
}
