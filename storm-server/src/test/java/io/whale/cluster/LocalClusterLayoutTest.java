package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalClusterLayoutTest {

    @Test
    void clusterConfKeepsTheOperatorsSettingsButPinsEverythingToLoopback(@TempDir Path tmp) throws Exception {
        Path base = tmp.resolve("storm.yaml");
        Files.writeString(base, "nimbus.seeds: [\"nimbus.example.com\"]\ntopology.message.timeout.secs: 77\n");
        LocalClusterLayout layout = new LocalClusterLayout(tmp.resolve("cluster"));
        PortPlan plan = new PortPlan(21000, 2, 2);

        layout.write(plan, base, ClusterAddresses.loopback(2), List.of(), true);

        Map<String, Object> conf = Utils.findAndReadConfigFile(layout.clusterConf().toString(), true);
        assertEquals(List.of("127.0.0.1"), conf.get("nimbus.seeds"));
        assertEquals(List.of("127.0.0.1"), conf.get("storm.zookeeper.servers"));
        assertEquals("127.0.0.1", conf.get("storm.local.hostname"));
        assertEquals("127.0.0.1", conf.get("whale.rdma.bind.host"), "the RDMA transport binds loopback only");
        assertEquals("sm,self", conf.get("whale.rdma.ucx.TLS"), "one host: UCX shared memory");
        assertEquals(21001, ((Number) conf.get("nimbus.thrift.port")).intValue());
        assertEquals(77, ((Number) conf.get("topology.message.timeout.secs")).intValue());
        assertEquals(21002, ((Number) conf.get("ui.port")).intValue());
        assertEquals("127.0.0.1", conf.get("ui.host"), "the UI, which can kill topologies, listens on loopback only");
        assertEquals(List.of(Map.of("class", "io.whale.metrics.prometheus.PrometheusReporter", "port", "21050-21099", "bind.host", "127.0.0.1")),
            conf.get("topology.metrics.reporters"), "every worker serves its metrics to Prometheus and the UI, on loopback");

        Map<String, Object> second = Utils.findAndReadConfigFile(layout.daemonConf("supervisor-2").toString(), true);
        assertEquals(List.of(21120, 21121), second.get("supervisor.slots.ports"));
        assertEquals(layout.dataDir("supervisor-2").toString(), second.get("storm.local.dir"));
        assertEquals(plan, layout.readPlan());
        assertEquals(List.of("zookeeper", "nimbus", "ui", "supervisor-1", "supervisor-2"), layout.daemons(plan));
    }

    @Test
    void aHomeWithoutWhaleUiGetsNeitherTheUiNorThePrometheusReporter(@TempDir Path tmp) throws Exception {
        Path stock = tmp.resolve("apache-storm");
        Files.createDirectories(stock.resolve("lib"));
        Files.createDirectories(stock.resolve("lib-worker"));
        Files.writeString(stock.resolve("lib/storm-server-2.8.3.jar"), "");
        Path whale = tmp.resolve("whale");
        Files.createDirectories(whale.resolve("lib"));
        Files.createDirectories(whale.resolve("lib-worker"));
        Files.writeString(whale.resolve("lib/whale-ui-0.1.0.jar"), "");
        Files.writeString(whale.resolve("lib-worker/whale-prometheus-0.1.0.jar"), "");
        assertFalse(LocalClusterLayout.shipsUi(stock), "stock Storm's workers have no Whale reporter class to load");
        assertTrue(LocalClusterLayout.shipsUi(whale));
        LocalClusterLayout layout = new LocalClusterLayout(tmp.resolve("cluster"));
        PortPlan plan = new PortPlan(21000, 1, 1);

        layout.write(plan, stock.resolve("conf/storm.yaml"), ClusterAddresses.loopback(1), List.of(), false);

        Map<String, Object> conf = Utils.findAndReadConfigFile(layout.clusterConf().toString(), true);
        assertFalse(conf.containsKey("topology.metrics.reporters"));
        assertFalse(conf.containsKey("ui.port"));
        assertEquals(List.of("zookeeper", "nimbus", "supervisor-1"), layout.daemons(plan));
    }

    @Test
    void emulatedHostsConfNamesEachSupervisorsAddressAndHostZerosNamespace(@TempDir Path tmp) throws Exception {
        LocalClusterLayout layout = new LocalClusterLayout(tmp.resolve("cluster"));
        ClusterAddresses hosts = new ClusterAddresses("10.213.7.10", List.of("10.213.7.11", "10.213.7.12"), Optional.of("whale-ab12c-h0"));

        layout.write(new PortPlan(21000, 2, 2), tmp.resolve("absent.yaml"), hosts, List.of("nimbus.task.timeout.secs: 10"), true);

        Map<String, Object> conf = Utils.findAndReadConfigFile(layout.clusterConf().toString(), true);
        assertEquals(List.of("10.213.7.10"), conf.get("nimbus.seeds"));
        assertEquals(List.of("10.213.7.10"), conf.get("storm.zookeeper.servers"));
        assertEquals("whale-ab12c-h0", conf.get(LocalClusterLayout.NETNS_KEY));
        assertEquals(10, ((Number) conf.get("nimbus.task.timeout.secs")).intValue(), "-c given to up reaches the cluster's conf");
        assertFalse(conf.containsKey("whale.rdma.bind.host"), "each Supervisor's conf names its own address, once");
        Map<String, Object> second = Utils.findAndReadConfigFile(layout.daemonConf("supervisor-2").toString(), true);
        assertEquals("10.213.7.12", second.get("storm.local.hostname"));
        assertEquals("10.213.7.12", second.get("whale.rdma.bind.host"));
        assertEquals(1, Files.readString(layout.daemonConf("supervisor-2")).split("whale.rdma.bind.host:", -1).length - 1,
            "written once: with host 0's address in the cluster's part too, the RDMA workers listened on host 0's");
        assertEquals(List.of("10.213.7.10"), second.get("nimbus.seeds"));
    }

    @Test
    void readingAMissingClusterSaysHowToStartOne(@TempDir Path tmp) {
        LocalClusterException e = assertThrows(LocalClusterException.class, () -> new LocalClusterLayout(tmp).readPlan());
        assertTrue(e.getMessage().contains("whale local-cluster up"), e.getMessage());
    }
}
