package io.whale.ack;

import com.codahale.metrics.Counter;
import org.apache.storm.Constants;
import org.apache.storm.metrics2.StormMetricRegistry;

/**
 * Worker-level ack-combining counters in Storm's metrics registry (component {@code __system}, task -1, beside the WOC
 * counters). Acks per ack sent = {@code woc-acks-offered / woc-acks-sent}; the mean wait of a combined ack =
 * {@code woc-ack-delay-us / woc-acks-sent}; {@code woc-acks-completed} of the sent ones left as soon as every task of the
 * worker that had been handed their root acked it.
 */
public final class AckMetrics {
    private final Counter offered;
    private final Counter sent;
    private final Counter delayMicros;
    private final Counter dropped;
    private final Counter completed;

    public AckMetrics(StormMetricRegistry registry) {
        this.offered = registry.counter("woc-acks-offered", Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
        this.sent = registry.counter("woc-acks-sent", Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
        this.delayMicros = registry.counter("woc-ack-delay-us", Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
        this.dropped = registry.counter("woc-acks-dropped", Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
        this.completed = registry.counter("woc-acks-completed", Constants.SYSTEM_COMPONENT_ID, (int) Constants.SYSTEM_TASK_ID);
    }

    /** For tests: counters of no registry. */
    AckMetrics() {
        this.offered = new Counter();
        this.sent = new Counter();
        this.delayMicros = new Counter();
        this.dropped = new Counter();
        this.completed = new Counter();
    }

    /** An executor's ack was taken to be combined. */
    void offered() {
        offered.inc();
    }

    /** A combined ack left (or was handed on to leave) at {@code nowNanos}. */
    void sent(PendingAcks.Combined combined, long nowNanos) {
        sent.inc();
        delayMicros.inc(Math.max(0, nowNanos - combined.firstNanos()) / 1_000);
    }

    /** A combined ack leaves because every ack its root was owed by the worker's tasks has arrived. */
    void completed() {
        completed.inc();
    }

    /** Combined acks a stopping worker could not send. */
    void dropped(int count) {
        dropped.inc(count);
    }

    long offeredCount() {
        return offered.getCount();
    }

    long sentCount() {
        return sent.getCount();
    }

    long delayMicrosTotal() {
        return delayMicros.getCount();
    }

    long completedCount() {
        return completed.getCount();
    }

    long droppedCount() {
        return dropped.getCount();
    }
}
