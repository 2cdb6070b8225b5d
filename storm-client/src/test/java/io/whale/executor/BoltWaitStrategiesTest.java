package io.whale.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.config.WhaleConfig;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.policy.WaitStrategyPark;
import org.apache.storm.policy.WaitStrategyProgressive;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class BoltWaitStrategiesTest {

    @Test
    void shouldBuildStormsConfiguredStrategyWhenTheKeyIsUnsetOrStorm() {
        Map<String, Object> conf = Utils.readDefaultConfig();
        assertInstanceOf(WaitStrategyProgressive.class, BoltWaitStrategies.create(conf));
        conf.put(WhaleConfig.BOLT_WAIT, "storm");
        conf.put(Config.TOPOLOGY_BOLT_WAIT_STRATEGY, WaitStrategyPark.class.getName());
        assertInstanceOf(WaitStrategyPark.class, BoltWaitStrategies.create(conf));
    }

    @Test
    void shouldSpinStormsLevelOneCountThenSleepWithoutTheParkLevel() throws Exception {
        Map<String, Object> conf = Utils.readDefaultConfig();
        conf.put(WhaleConfig.BOLT_WAIT, "sleep");
        conf.put(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL1_COUNT, 2);
        conf.put(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL2_COUNT, 1000);
        IWaitStrategy wait = BoltWaitStrategies.create(conf);
        wait.prepare(conf, IWaitStrategy.WaitSituation.BOLT_WAIT);

        assertEquals(1, wait.idle(0), "spins first, as Storm's level 1");
        assertEquals(2, wait.idle(1));
        assertEquals(2, wait.idle(2), "then sleeps, without the 1000 parkNanos(1) calls Storm's level 2 would make"
            + " (they count the counter up)");
        assertEquals(1000, conf.get(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL2_COUNT), "the topology's conf is untouched");
    }

    @Test
    void shouldRefuseAnUnknownChoiceNamingTheKey() {
        Map<String, Object> conf = Utils.readDefaultConfig();
        conf.put(WhaleConfig.BOLT_WAIT, "spin");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BoltWaitStrategies.create(conf));
        assertTrue(e.getMessage().startsWith("whale.bolt.wait: \"spin\""), e.getMessage());
    }
}
