package io.whale.rdma.channel;

import io.whale.rdma.spi.Poller;
import java.nio.ByteBuffer;

/**
 * When a receiver tells its sender which work requests were consumed. A CONSUMED is cumulative (everything up to its
 * seq is released), so one may cover several work requests, and each one saved is a message the sender's progress
 * thread does not wake for. The report of a released prefix waits at most {@code delayNanos} from the first release it
 * covers; it goes at once when {@code maxBytes} wait on it (the sender is then never short of ring space for want of a
 * report) or when the delay is 0 (every work request reported as it is consumed, the paper's channel). Pure: times are
 * passed in ({@link System#nanoTime} units); progress thread only.
 */
final class ConsumptionReport {
    private final long delayNanos;
    private final long maxBytes;
    private boolean pending;
    private long since;
    private long bytes;
    private long seq;
    private long end;

    ConsumptionReport(long delayNanos, long maxBytes) {
        this.delayNanos = delayNanos;
        this.maxBytes = maxBytes;
    }

    /**
     * The released prefix now reaches work request {@code seq}, ending at ring counter {@code end}, {@code bytes} more
     * than before, at {@code nowNanos}; true when it is to be reported now ({@link #take}).
     */
    boolean released(long seq, long end, long bytes, long nowNanos) {
        if (!pending) {
            pending = true;
            since = nowNanos;
        }
        this.seq = seq;
        this.end = end;
        this.bytes += bytes;
        return delayNanos == 0 || this.bytes >= maxBytes;
    }

    /** When the report waiting must go, or {@link Poller#NO_DEADLINE} when none waits. */
    long deadline() {
        return pending ? since + delayNanos : Poller.NO_DEADLINE;
    }

    boolean due(long nowNanos) {
        return pending && nowNanos - deadline() >= 0;
    }

    /** The last work request the waiting report covers. */
    long seq() {
        return seq;
    }

    /** The CONSUMED message of the waiting report; none waits after it. */
    ByteBuffer take() {
        pending = false;
        bytes = 0;
        return Control.consumed(seq, end);
    }
}
