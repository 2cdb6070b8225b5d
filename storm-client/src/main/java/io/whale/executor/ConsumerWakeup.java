package io.whale.executor;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Lets the one consumer of a queue park while the queue is empty and be woken by the next publish, as the
 * Disruptor's blocking wait strategies do, instead of sleeping a fixed time or spinning. The queue calls
 * {@link #wake} after every successful publish; the consumer calls {@link #park}.
 *
 * <p>No wake-up is lost: the consumer announces itself before it looks at the queue, a producer looks for it after
 * its publish became visible (the queues publish with a CAS, a full fence), so either the consumer sees the new
 * element or the producer sees the parked consumer; an unpark that comes before the park makes the park return at
 * once. The park is bounded all the same ({@code maxNanos}), so nothing but latency depends on that reasoning.
 */
public final class ConsumerWakeup {
    private volatile Thread parked;

    /** Consumer side: parks up to {@code maxNanos} unless {@code hasWork} already says there is work. */
    public void park(long maxNanos, BooleanSupplier hasWork) {
        parked = Thread.currentThread();
        try {
            if (!hasWork.getAsBoolean()) {
                LockSupport.parkNanos(this, maxNanos);
            }
        } finally {
            parked = null;
        }
    }

    /** Producer side, after a publish: unparks the consumer if it is parked (one volatile read otherwise). */
    public void wake() {
        Thread consumer = parked;
        if (consumer != null) {
            LockSupport.unpark(consumer);
        }
    }
}
