package io.whale.executor;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.policy.WaitStrategyProgressive;

/**
 * Storm's progressive wait without its park level: an idle bolt executor spins
 * {@code topology.bolt.wait.progressive.level1.count} times, then sleeps
 * {@code topology.bolt.wait.progressive.level3.sleep.millis} at a time. Storm's default first calls
 * {@code parkNanos(1)} up to {@code level2.count} (1000) times per idle stretch: with dozens of executors on a few
 * cores those calls keep every idle executor on the CPU and starve the busy ones (a broadcast to 64 tasks on two
 * cores collapses to a tenth of its throughput).
 */
final class SleepWhenIdleWaitStrategy implements IWaitStrategy {
    private final WaitStrategyProgressive progressive = new WaitStrategyProgressive();

    @Override
    public void prepare(Map<String, Object> conf, WaitSituation waitSituation) {
        Map<String, Object> withoutParkLevel = new HashMap<>(conf);
        withoutParkLevel.put(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL2_COUNT, 0);
        progressive.prepare(withoutParkLevel, waitSituation);
    }

    @Override
    public int idle(int idleCounter) throws InterruptedException {
        return progressive.idle(idleCounter);
    }
}
