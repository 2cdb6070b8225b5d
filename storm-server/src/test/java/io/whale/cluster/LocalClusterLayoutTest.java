package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

        layout.write(plan, base);

        Map<String, Object> conf = Utils.findAndReadConfigFile(layout.clusterConf().toString(), true);
        assertEquals(List.of("127.0.0.1"), conf.get("nimbus.seeds"));
        assertEquals(List.of("127.0.0.1"), conf.get("storm.zookeeper.servers"));
        assertEquals("127.0.0.1", conf.get("storm.local.hostname"));
        assertEquals("127.0.0.1", conf.get("whale.rdma.bind.host"), "the RDMA transport binds loopback only");
        assertEquals("sm,self", conf.get("whale.rdma.ucx.TLS"), "one host: UCX shared memory");
        assertEquals(21001, ((Number) conf.get("nimbus.thrift.port")).intValue());
        assertEquals(77, ((Number) conf.get("topology.message.timeout.secs")).intValue());

        Map<String, Object> second = Utils.findAndReadConfigFile(layout.daemonConf("supervisor-2").toString(), true);
        assertEquals(List.of(21120, 21121), second.get("supervisor.slots.ports"));
        assertEquals(layout.dataDir("supervisor-2").toString(), second.get("storm.local.dir"));
        assertEquals(plan, layout.readPlan());
    }

    @Test
    void readingAMissingClusterSaysHowToStartOne(@TempDir Path tmp) {
        LocalClusterException e = assertThrows(LocalClusterException.class, () -> new LocalClusterLayout(tmp).readPlan());
        assertTrue(e.getMessage().contains("whale local-cluster up"), e.getMessage());
    }
}
