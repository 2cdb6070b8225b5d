package io.whale.examples.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.apache.storm.Config;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class TopologyOptionsTest {
    @Command
    static final class Main {
        @Mixin
        TopologyOptions options;
    }

    @Test
    void shouldBuildTheConfFromOptionsThenSettingsThenConfOverrides() {
        Main main = new Main();
        new CommandLine(main).parseArgs("--workers", "3", "--max-spout-pending", "100",
                "-c", "whale.woc.enabled=false", "-c", "app.radius=800", "-c", "topology.workers=5", "-c", "name=x y", "-c", "pair=1 2");
        Config conf = main.options.topologyConf(Map.of("app.radius", 500.0, "app.other", "kept"));
        assertEquals(5L, conf.get(Config.TOPOLOGY_WORKERS));
        assertEquals(100, conf.get(Config.TOPOLOGY_MAX_SPOUT_PENDING));
        assertEquals(false, conf.get("whale.woc.enabled"));
        assertEquals(800L, conf.get("app.radius"));
        assertEquals("kept", conf.get("app.other"));
        assertEquals("x y", conf.get("name"));
        assertEquals("1 2", conf.get("pair"));
        assertEquals("127.0.0.1:9092", main.options.bootstrap);
        assertEquals("app", main.options.name("app"));
    }
}
