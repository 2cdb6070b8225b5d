package io.whale.executor;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Wakes a queue's consumer when a producer publishes to the queue, so that an idle consumer can park until it has work
 * instead of waking to look. The consumer announces itself ({@code waiter}), looks at the queue once more, and parks;
 * a producer reads {@code waiter} after its publish and unparks whoever is there. The announcement and the look are
 * volatile accesses, as are the queue's producer index (which a publish moves and the look reads) and the producer's
 * read of {@code waiter}: in their one order either the look comes after the publish and sees the tuple, or the
 * producer's read comes after the announcement and sees the consumer. A publish is never missed; an extra unpark
 * costs one turn of the consumer's loop.
 */
public final class PublishSignal {
    /** Whether the queue holds a tuple: the consumer's look before it parks. */
    private final BooleanSupplier published;
    private volatile Thread waiter;

    public PublishSignal(BooleanSupplier published) {
        this.published = published;
    }

    /** By a producer, after each publish. */
    public void signal() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /**
     * By the consumer: parks until a producer signals, {@code maxNanos} pass or the thread is interrupted, unless
     * the queue already holds a tuple.
     */
    public void await(long maxNanos) {
        waiter = Thread.currentThread();
        try {
            if (!published.getAsBoolean()) {
                LockSupport.parkNanos(this, maxNanos);
            }
        } finally {
            waiter = null;
        }
    }
}
