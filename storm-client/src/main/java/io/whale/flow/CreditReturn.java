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
 * batch's relay frames, through the {@link RelayInbound} open around the hand-over. Both go to the batch's sender only.
 */
public final class CreditReturn {
    /** Hands the batch to the worker (Netty's {@code enqueue}, the RDMA server's callback). */
    @FunctionalInterface
    public interface HandOver {
        void run() throws InterruptedException;
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
            RelayInbound.enter(sender);
        }
        try {
            handOver.run();
        } finally {
            if (relayCredits) {
                RelayInbound.exit();
            }
        }
        int owed = frameCredits ? FrameCredit.owed(batch) : 0;
        if (owed > 0) {
            sender.accept(FrameCredit.message(owed));
        }
    }
}
