package io.whale.flow;

import io.whale.config.WocConfig;
import io.whale.wire.FrameCredit;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.storm.messaging.TaskMessage;

/**
 * What a worker's receiving side returns for a batch it received, on both transports (the patched Netty server, patch
 * 0011, and the RDMA transport's server): once the batch has been handed to the worker, the WOC frame credit for the
 * tuples its frames carried ({@link FrameCredit}); and, with relay trees on, the relay credit a member owes for the
 * batch's relay frames, through the {@link RelayInbound} it hands over with the batch and releases after. Both go to
 * the batch's sender only.
 */
public final class CreditReturn {
    /**
     * Hands the batch to the worker (Netty's {@code enqueue}, the RDMA server's callback) with the connection it came in
     * on, for the relay credit its frames are owed ({@link InboundCallback#deliver}).
     */
    @FunctionalInterface
    public interface HandOver {
        void run(Consumer<TaskMessage> inbound) throws InterruptedException;
    }

    private final boolean frameCredits;
    private final boolean relayCredits;

    public CreditReturn(Map<String, Object> topoConf) {
        this.frameCredits = WocConfig.isEnabled(topoConf);
        this.relayCredits = WocConfig.isRelayed(topoConf);
    }

    /** Runs {@code handOver} for {@code batch}, then sends {@code sender} what the batch is owed. */
    public void handOver(List<TaskMessage> batch, HandOver handOver, Consumer<TaskMessage> sender) throws InterruptedException {
        if (relayCredits) {
            RelayInbound inbound = new RelayInbound(sender);
            try {
                handOver.run(inbound);
            } finally {
                inbound.release();
            }
        } else {
            handOver.run(RelayInbound.NONE);
        }
        int owed = frameCredits ? FrameCredit.owed(batch) : 0;
        if (owed > 0) {
            sender.accept(FrameCredit.message(owed));
        }
    }
}
