package io.whale.executor;

import io.whale.config.WhaleConfigValidation;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.utils.JCQueue;

/**
 * A bolt executor's wait for tuples ({@code topology.bolt.wait.strategy: io.whale.executor.PublishWait}) that parks
 * until a tuple is published to the executor's receive queue. Storm's progressive wait, without its park level (which
 * Whale's conf/storm.yaml leaves out), sleeps 1 ms at a time, so every idle executor wakes a thousand times a second
 * to look: with 16 tasks a worker on a host's fifth of a core, those wake-ups took most of the host's CPU. Here an
 * executor wakes once per tuple that finds it idle, and sooner than after a sleep. The bolt executor hands over its
 * queue ({@link #watch}, a hook in {@code BoltExecutor}); {@link PublishSignal} says why no publish is missed.
 */
public final class PublishWait implements IWaitStrategy {
    /** The longest park: an idle executor still takes a turn of its loop this often, as it does under Storm's waits. */
    static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private final long maxParkNanos;
    private JCQueue queue;

    /** As Storm makes a wait: by reflection, from {@code topology.bolt.wait.strategy}. */
    public PublishWait() {
        this(MAX_PARK_NANOS);
    }

    PublishWait(long maxParkNanos) {
        this.maxParkNanos = maxParkNanos;
    }

    /** Hands {@code receiveQueue} to {@code strategy} if it is this wait; any other strategy is left as it is. */
    public static void watch(IWaitStrategy strategy, JCQueue receiveQueue) {
        if (strategy instanceof PublishWait wait) {
            wait.queue = receiveQueue;
        }
    }

    @Override
    public void prepare(Map<String, Object> conf, WaitSituation situation) {
        if (situation != WaitSituation.BOLT_WAIT) {
            throw new IllegalArgumentException(WhaleConfigValidation.misplacedPublishWait(
                situation == WaitSituation.SPOUT_WAIT ? Config.TOPOLOGY_SPOUT_WAIT_STRATEGY : Config.TOPOLOGY_BACKPRESSURE_WAIT_STRATEGY));
        }
    }

    @Override
    public int idle(int idleCounter) {
        if (queue == null) {
            throw new IllegalStateException(PublishWait.class.getName() + " has no receive queue to watch: only a bolt"
                + " executor hands it one");
        }
        queue.awaitPublish(maxParkNanos);
        return idleCounter + 1;
    }
}
