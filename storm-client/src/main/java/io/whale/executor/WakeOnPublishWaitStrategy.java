package io.whale.executor;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.utils.JCQueue;
import org.apache.storm.utils.ObjectReader;

/**
 * An idle bolt executor's wait that neither spins on the CPU nor adds a sleep's latency: after Storm's level-1
 * spins ({@code topology.bolt.wait.progressive.level1.count}) it parks until the next tuple is published to its
 * receive queue, or at most {@code topology.bolt.wait.progressive.level3.sleep.millis} (what Storm's progressive
 * wait would sleep). Storm's progressive wait instead calls {@code parkNanos(1)} up to
 * {@code level2.count} (1000) times per idle stretch, which with dozens of executors on a few cores takes the CPU
 * from the busy ones, and then sleeps a whole millisecond however soon a tuple arrives.
 */
public final class WakeOnPublishWaitStrategy implements IWaitStrategy {
    private final JCQueue queue;
    private int spins;
    private long maxParkNanos;

    WakeOnPublishWaitStrategy(JCQueue queue) {
        this.queue = queue;
    }

    @Override
    public void prepare(Map<String, Object> conf, WaitSituation waitSituation) {
        if (waitSituation != WaitSituation.BOLT_WAIT) {
            throw new IllegalArgumentException("wake-on-publish waits for a bolt's receive queue, not in " + waitSituation);
        }
        spins = ObjectReader.getInt(conf.get(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL1_COUNT));
        maxParkNanos = TimeUnit.MILLISECONDS.toNanos(ObjectReader.getLong(conf.get(
            Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL3_SLEEP_MILLIS)));
    }

    @Override
    public int idle(int idleCounter) throws InterruptedException {
        if (idleCounter < spins) {
            return idleCounter + 1;
        }
        queue.consumerWakeup().park(maxParkNanos, () -> queue.size() > 0);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return idleCounter;
    }
}
