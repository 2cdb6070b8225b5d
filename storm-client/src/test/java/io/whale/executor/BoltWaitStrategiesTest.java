package io.whale.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.config.WhaleConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.policy.WaitStrategyPark;
import org.apache.storm.policy.WaitStrategyProgressive;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class BoltWaitStrategiesTest {
    private final JCQueue queue = new JCQueue("test", "test", 1024, 0, 1, new WaitStrategyPark(100), "topo", "bolt",
        List.of(1), 6700, new StormMetricRegistry());

    @Test
    void shouldBuildStormsConfiguredStrategyWhenTheKeyIsUnsetOrStorm() {
        Map<String, Object> conf = Utils.readDefaultConfig();
        assertInstanceOf(WaitStrategyProgressive.class, BoltWaitStrategies.create(conf, queue));
        conf.put(WhaleConfig.BOLT_WAIT, "storm");
        conf.put(Config.TOPOLOGY_BOLT_WAIT_STRATEGY, WaitStrategyPark.class.getName());
        assertInstanceOf(WaitStrategyPark.class, BoltWaitStrategies.create(conf, queue));
    }

    @Test
    void shouldSpinStormsLevelOneCountThenParkUntilAPublish() throws Exception {
        Map<String, Object> conf = Utils.readDefaultConfig();
        conf.put(WhaleConfig.BOLT_WAIT, "wake-on-publish");
        conf.put(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL1_COUNT, 2);
        conf.put(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL3_SLEEP_MILLIS, TimeUnit.MINUTES.toMillis(1));
        IWaitStrategy wait = BoltWaitStrategies.create(conf, queue);
        wait.prepare(conf, IWaitStrategy.WaitSituation.BOLT_WAIT);

        assertEquals(1, wait.idle(0), "spins first, as Storm's level 1");
        assertEquals(2, wait.idle(1));
        CompletableFuture<Integer> parked = CompletableFuture.supplyAsync(() -> {
            try {
                return wait.idle(2);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        queue.tryPublish("tuple");
        assertEquals(2, assertTimeoutPreemptively(Duration.ofSeconds(20), () -> parked.join()),
            "woken by the publish long before the minute-long bound");
    }

    @Test
    void shouldRefuseAnUnknownChoiceNamingTheKey() {
        Map<String, Object> conf = Utils.readDefaultConfig();
        conf.put(WhaleConfig.BOLT_WAIT, "spin");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BoltWaitStrategies.create(conf, queue));
        assertTrue(e.getMessage().startsWith("whale.bolt.wait: \"spin\""), e.getMessage());
    }
}
