package io.whale.rdma.channel;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deliveries of one inbound channel, run in submission order on a shared executor (the server's receive
 * threads) and never two at once, so the progress thread only enqueues. A channel takes at most {@link #TURN}
 * deliveries per turn and then queues itself behind the other channels, so one busy sender cannot starve the rest
 * of a small pool.
 */
final class OrderedDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(OrderedDelivery.class);
    static final int TURN = 16;

    private final Executor executor;
    private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    OrderedDelivery(Executor executor) {
        this.executor = executor;
    }

    /**
     * Queues {@code delivery} behind the earlier ones; one thread submits (the progress thread). Returns false, and queues nothing, when the executor no
     * longer takes work (the server was closed).
     */
    boolean submit(Runnable delivery) {
        pending.add(delivery);
        if (scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException e) {
                pending.remove(delivery);
                scheduled.set(false);
                return false;
            }
        }
        return true;
    }

    private void drain() {
        while (true) {
            Runnable delivery;
            for (int i = 0; i < TURN && (delivery = pending.poll()) != null; i++) {
                try {
                    delivery.run();
                } catch (RuntimeException e) {
                    LOG.error("inbound delivery failed", e);
                }
            }
            scheduled.set(false);
            if (pending.isEmpty() || !scheduled.compareAndSet(false, true)) {
                return;
            }
            try {
                executor.execute(this::drain); // behind the other channels' turns
                return;
            } catch (RejectedExecutionException shuttingDown) {
                // the server is closing: finish what was queued on this thread
            }
        }
    }
}
