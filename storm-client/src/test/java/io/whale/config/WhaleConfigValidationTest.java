package io.whale.config;

import static io.whale.config.WhaleConfig.TRANSPORT;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.testing.TestWordSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.ConfigUtils;
import org.apache.storm.validation.ConfigValidation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Storm's own topology-conf check (patched) refuses bad whale.* values with a message naming key, value and rule. */
class WhaleConfigValidationTest {

    /**
     * A quoted boolean, for a whale.* key and for Storm's key of the TLS client's host name check (patch 0031), which
     * Storm 2.8.3's own validation does not know.
     */
    @ParameterizedTest(name = "{0} = \"{1}\"")
    @CsvSource(delimiter = '|', value = {"whale.woc.enabled | true", "storm.messaging.netty.tls.hostnameVerification | no"})
    void shouldRefuseAQuotedBooleanNamingTheKeyTheValueAndWhatIsAccepted(String key, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigValidation.validateTopoConf(conf(key, value)));
        assertEquals(key + ": \"" + value + "\" (a string) is not accepted; expected a boolean: true or false (unquoted in YAML)",
            e.getMessage());
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "whale.transport | tcp | one of netty, rdma",
        "whale.rdma.provider | verbs | one of ucx, disni",
        "whale.rdma.mms.bytes | 0 | a whole number from 1 to 2147483647",
        "whale.rdma.mms.bytes | 4294967296 | a whole number from 1 to 2147483647",
        "whale.rdma.ring.bytes | -1 | a whole number from 1 to 2147483647",
        "whale.rdma.wtl.ms | -0.5 | a number, 0 or more",
        "whale.rdma.poll.max.park.us | -1 | a whole number from 0 to 2147483647",
        "whale.rdma.progress.wait | 0 | a boolean: true or false (unquoted in YAML)",
        "whale.rdma.progress.spins | -1 | a whole number from 0 to 2147483647",
        "whale.rdma.progress.yields | 1.5 | a whole number from 0 to 2147483647",
        "whale.rdma.inline.bytes | -1 | a whole number from 0 to 4000",
        "whale.rdma.inline.bytes | 4001 | a whole number from 0 to 4000",
        "whale.rdma.consumed.delay.ms | -1 | a whole number from 0 to 1000",
        "whale.rdma.consumed.delay.ms | 1001 | a whole number from 0 to 1000",
        "whale.rdma.send.timeout.ms | 2.5 | a whole number from 1 to 2147483647",
        "whale.rdma.handshake.timeout.ms | 0 | a whole number from 1 to 2147483647",
        "whale.rdma.reconnect.max.attempts | 0 | a whole number from 1 to 2147483647",
        "whale.woc.window.tuples | -1 | a whole number from 0 to 2147483647",
        "whale.woc.window.delay.ms | -1 | a whole number from 0 to 2147483647",
        "whale.woc.window.delay.ms | 2.5 | a whole number from 0 to 2147483647",
        "whale.woc.stall.ms | -1 | a whole number from 0 to 2147483647",
        "whale.woc.stall.buffer.bytes | -1 | a whole number from 0 to 2147483647",
        "whale.woc.ack.combine | yes | a boolean: true or false (unquoted in YAML)",
        "whale.woc.ack.combine.delay.ms | 0 | a whole number from 1 to 1000",
        "whale.woc.ack.combine.delay.ms | 1001 | a whole number from 1 to 1000",
        "whale.woc.ack.combine.wait.ms | -1 | a whole number from 0 to 60000",
        "whale.woc.ack.combine.wait.ms | 60001 | a whole number from 0 to 60000",
        "whale.multicast.structure | tree | one of sequential, binomial, nonblocking",
        "whale.multicast.max.outdegree | 0 | auto, or a whole number from 1 to 2147483647",
        "whale.multicast.max.outdegree | automatic | auto, or a whole number from 1 to 2147483647",
        "whale.multicast.queue.capacity | 0 | a whole number from 1 to 2147483647",
        "whale.multicast.t.up | 1.5 | a number above 0 and at most 1",
        "whale.multicast.t.down | 0 | a number above 0",
        "whale.multicast.rate.alpha | 1 | a number from 0, below 1",
        "whale.multicast.monitor.interval.ms | 0 | a whole number from 1 to 2147483647",
        "whale.multicast.forced.switch.ms | -5 | a whole number from 0 to 2147483647",
    })
    void shouldRefuseAnOutOfRangeValueNamingTheKey(String key, String value, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateTopoConf(conf(key, parsed(value))));
        assertTrue(e.getMessage().startsWith(key + ": "), e.getMessage());
        assertTrue(e.getMessage().endsWith("expected " + expected), e.getMessage());
    }

    @Test
    void shouldRefuseANumberGivenAsAString() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateTopoConf(conf(WhaleConfig.RDMA_MMS_BYTES, "262144")));
        assertTrue(e.getMessage().startsWith("whale.rdma.mms.bytes: \"262144\" (a string) is not accepted"));
    }

    @Test
    void shouldRefuseARingSmallerThanOneWorkRequest() {
        Map<String, Object> conf = conf(WhaleConfig.RDMA_MMS_BYTES, 1_048_576L);
        conf.put(WhaleConfig.RDMA_RING_BYTES, 65_536L);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateTopoConf(conf));
        assertEquals("whale.rdma.ring.bytes (65536) must be at least whale.rdma.mms.bytes (1048576)", e.getMessage());
    }

    @Test
    void shouldRefuseAWorkRequestAboveTheDefaultRingWhenOnlyItIsSet() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateTopoConf(conf(WhaleConfig.RDMA_MMS_BYTES, 16_777_216L)));
        assertEquals("whale.rdma.ring.bytes (8388608, its default) must be at least whale.rdma.mms.bytes (16777216)", e.getMessage());
        IllegalArgumentException min = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateTopoConf(conf(WhaleConfig.RDMA_RECONNECT_MIN_MS, 5_000L)));
        assertEquals("whale.rdma.reconnect.max.ms (1000, its default) must be at least whale.rdma.reconnect.min.ms (5000)",
            min.getMessage());
        IllegalArgumentException ring = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateTopoConf(conf(WhaleConfig.RDMA_RING_BYTES, 65_536L)));
        assertEquals("whale.rdma.ring.bytes (65536) must be at least whale.rdma.mms.bytes (262144, its default)", ring.getMessage());
        ConfigValidation.validateTopoConf(conf(WhaleConfig.RDMA_MMS_BYTES, 1_048_576L));
        ConfigValidation.validateTopoConf(conf(WhaleConfig.MULTICAST_WATERLINE, 100_000L));
    }

    @Test
    void shouldRefuseAWaterlineAboveTheQueueCapacity() {
        Map<String, Object> conf = conf(WhaleConfig.MULTICAST_QUEUE_CAPACITY, 1000L);
        conf.put(WhaleConfig.MULTICAST_WATERLINE, 1500L);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateTopoConf(conf));
        assertEquals("whale.multicast.queue.capacity (1000) must be at least whale.multicast.waterline (1500)",
            e.getMessage());
    }

    @Test
    void shouldAcceptEveryMulticastStructureAndAnAutomaticOutDegree() {
        for (String structure : new String[] {"sequential", "binomial", "nonblocking"}) {
            Map<String, Object> conf = conf(WhaleConfig.MULTICAST_STRUCTURE, structure);
            conf.put(WhaleConfig.MULTICAST_MAX_OUTDEGREE, "auto");
            conf.put(WhaleConfig.MULTICAST_T_UP, 0.5);
            conf.put(WhaleConfig.MULTICAST_RATE_ALPHA, 0.8);
            assertDoesNotThrow(() -> ConfigValidation.validateTopoConf(conf), structure);
        }
        assertDoesNotThrow(() -> ConfigValidation.validateTopoConf(conf(WhaleConfig.MULTICAST_MAX_OUTDEGREE, 3L)));
    }

    @Test
    void shouldAcceptWhatTheShippedConfAndTheCommandLineGive() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(WhaleConfig.WOC_ENABLED, true);
        conf.put(WhaleConfig.TRANSPORT, "RDMA");
        conf.put(WhaleConfig.RDMA_MMS_BYTES, 262_144);
        conf.put(WhaleConfig.RDMA_RING_BYTES, 8_388_608L);
        conf.put(WhaleConfig.RDMA_POLL_MAX_PARK_US, 0);
        conf.put(WhaleConfig.RDMA_PROGRESS_WAIT, false);
        conf.put(WhaleConfig.RDMA_PROGRESS_SPINS, 0);
        conf.put(WhaleConfig.RDMA_PROGRESS_YIELDS, 10L);
        conf.put(WhaleConfig.RDMA_INLINE_BYTES, 0);
        conf.put(WhaleConfig.RDMA_CONSUMED_DELAY_MS, 0);
        conf.put(WhaleConfig.RDMA_SECRET, "s3cret");
        conf.put(WhaleConfig.RDMA_UCX_PREFIX + "TLS", "posix,self");
        conf.put(WhaleConfig.RDMA_WTL_MS, 0.25);
        conf.put(Config.TOPOLOGY_WORKERS, 2);
        assertDoesNotThrow(() -> ConfigValidation.validateTopoConf(conf));
    }

    @Test
    void shouldRefuseTheSubmitBeforeAnythingIsUploaded() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("words", new TestWordSpout());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StormSubmitter.submitTopology(
            "bad-conf", conf(WhaleConfig.TRANSPORT, "infiniband"), builder.createTopology()));
        assertEquals("whale.transport: \"infiniband\" (a string) is not accepted; expected one of netty, rdma",
            e.getMessage());
    }

    @Test
    void shouldReadAKeySetToNothingAsUnset() {
        assertDoesNotThrow(() -> ConfigValidation.validateTopoConf(conf(WhaleConfig.WOC_ENABLED, null)));
    }

    @Test
    void shouldMaskTheRdmaSecretWhereStormMasksPasswords() {
        Map<String, Object> masked = ConfigUtils.maskPasswords(conf(WhaleConfig.RDMA_SECRET, "s3cret"));
        assertEquals("*****", masked.get(WhaleConfig.RDMA_SECRET));
    }

    @Test
    void shouldRefuseABadValueInADaemonsStormYaml() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConfigValidation.validateFields(conf(WhaleConfig.WOC_ENABLED, "yes")),
            "daemons validate storm.yaml against every registered Validated class, WhaleConfig included");
        assertTrue(e.getMessage().startsWith("whale.woc.enabled: \"yes\""), e.getMessage());
    }

    @Test
    void shouldHaveARuleForEveryKey() throws IllegalAccessException {
        for (Field field : WhaleConfig.class.getFields()) {
            String key = (String) field.get(null);
            if (Modifier.isStatic(field.getModifiers()) && !key.endsWith(".")) {
                assertDoesNotThrow(() -> WhaleConfigValidation.check(key, null), key);
            }
        }
    }

    /** As YAML or the command line's JSON would type the value: a whole number, a number, or a string. */
    private static Object parsed(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException notWhole) {
            try {
                return Double.parseDouble(value);
            } catch (NumberFormatException notNumber) {
                return value;
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "whale.woc.enable | whale.woc.enabled",
        "whale.transprot | whale.transport",
        "whale.multicast.max.out.degree | whale.multicast.max.outdegree",
        "whale.rdma.ring.size | whale.rdma.ring.bytes",
    })
    void shouldWarnOfAMisspelledWhaleKeyNamingTheClosestOne(String misspelled, String closest) {
        Map<String, Object> conf = conf(misspelled, true);
        conf.put(WhaleConfig.WOC_ENABLED, true);

        assertEquals(java.util.List.of(misspelled + " is not a Whale key and is ignored; the closest Whale key is " + closest),
            WhaleConfigValidation.unknownKeys(conf));
    }

    @Test
    void shouldWarnThatTheRetiredBoltWaitKeyIsIgnoredAndNameStormsKeyWithoutRefusingTheTopology() {
        Map<String, Object> conf = conf("whale.bolt.wait", "sleep");

        WhaleConfigValidation.validateTopoConf(conf);
        assertEquals(java.util.List.of("whale.bolt.wait is no longer read and is ignored; Storm's own "
            + "topology.bolt.wait.progressive.level2.count does its work: 0 is what sleep was (conf/storm.yaml ships it), "
            + "Storm's default 1000 what storm was"), WhaleConfigValidation.unknownKeys(conf));
    }

    @Test
    void shouldRefuseThePublishWaitAsASpoutsOrABackpressureWaitNamingTheKey() {
        for (String key : java.util.List.of(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, Config.TOPOLOGY_BACKPRESSURE_WAIT_STRATEGY)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConfigValidation.validateTopoConf(conf(key, "io.whale.executor.PublishWait")));
            assertTrue(e.getMessage().startsWith(key + ": io.whale.executor.PublishWait waits for tuples published to a"
                + " bolt's queue"), e.getMessage());
        }
        assertDoesNotThrow(() -> ConfigValidation.validateTopoConf(conf(Config.TOPOLOGY_BOLT_WAIT_STRATEGY,
            "io.whale.executor.PublishWait")));
    }

    @Test
    void shouldLeaveWhaleKeysStormKeysApplicationKeysAndUcxSettingsAlone() {
        Map<String, Object> conf = conf(WhaleConfig.MULTICAST_STRUCTURE, "nonblocking");
        conf.put("whale.examples.report.file", "/tmp/report.jsonl");
        conf.put("whale.rdma.ucx.TLS", "tcp,sm,self");
        conf.put(Config.TOPOLOGY_WORKERS, 2);

        assertEquals(java.util.List.of(), WhaleConfigValidation.unknownKeys(conf));
    }

    @Test
    void shouldRefuseTheRdmaTransportWhereNettyTlsOrSaslIsOnNamingWhichAndWhere() {
        Map<String, Object> tlsCluster = Map.of(Config.STORM_MESSAGING_NETTY_TLS_ENABLE, true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> WhaleConfigValidation.checkTransportSecurity(Map.of(TRANSPORT, "rdma"), tlsCluster));
        assertTrue(e.getMessage().startsWith("whale.transport: rdma carries tuples without Netty's TLS and SASL, and "
                                             + "storm.messaging.netty.tls.enable: true (the cluster's) asks for them"), e.getMessage());

        e = assertThrows(IllegalArgumentException.class, () -> WhaleConfigValidation.checkTransportSecurity(
            Map.of(Config.STORM_MESSAGING_TRANSPORT, TransportSelection.RDMA_CONTEXT, Config.STORM_MESSAGING_NETTY_AUTHENTICATION, true),
            Map.of()));
        assertTrue(e.getMessage().contains("storm.messaging.netty.authentication: true (the topology's)"), e.getMessage());

        Map<String, Object> rdmaWithSasl = new HashMap<>(Map.of(TRANSPORT, "rdma", Config.STORM_MESSAGING_NETTY_AUTHENTICATION, true));
        assertThrows(IllegalArgumentException.class, () -> ConfigValidation.validateTopoConf(rdmaWithSasl),
            "Storm's own topology check (submit, Nimbus) refuses it");

        WhaleConfigValidation.checkTransportSecurity(Map.of(TRANSPORT, "netty"), tlsCluster);
        WhaleConfigValidation.checkTransportSecurity(Map.of(TRANSPORT, "rdma"), Map.of());
        WhaleConfigValidation.checkTransportSecurity(Map.of(TRANSPORT, "rdma", Config.STORM_MESSAGING_NETTY_TLS_ENABLE, false), tlsCluster);
    }

    @Test
    void shouldRefuseAPrometheusReporterWithoutAUsablePortNamingTheKey() {
        Map<String, Object> conf = conf(Config.TOPOLOGY_METRICS_REPORTERS, java.util.List.of(
            Map.of("class", WhaleConfigValidation.PROMETHEUS_REPORTER, "port", "9260-9250")));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigValidation.validateTopoConf(conf));

        assertTrue(e.getMessage().startsWith("topology.metrics.reporters: PrometheusReporter: 'port' must be a port or a range"),
            e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ConfigValidation.validateTopoConf(conf(Config.TOPOLOGY_METRICS_REPORTERS,
            java.util.List.of(Map.of("class", WhaleConfigValidation.PROMETHEUS_REPORTER)))), "a missing port");
        assertDoesNotThrow(() -> ConfigValidation.validateTopoConf(conf(Config.TOPOLOGY_METRICS_REPORTERS,
            java.util.List.of(Map.of("class", WhaleConfigValidation.PROMETHEUS_REPORTER, "port", "9250-9260")))));
    }

    private static Map<String, Object> conf(String key, Object value) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(key, value);
        return conf;
    }
}
