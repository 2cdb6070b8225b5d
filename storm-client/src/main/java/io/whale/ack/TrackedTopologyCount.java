package io.whale.ack;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.executor.LocalExecutor;
import org.apache.storm.utils.RegisteredGlobalState;

/**
 * Storm's tracked topologies (its testing harness: a tracked LocalCluster) wait until every tuple an executor transferred
 * was executed by a tracked bolt, the acker included. An ack folded into another is never executed on its own: it is
 * counted here as processed, so the harness sees the same totals as without combining. Outside a tracked cluster there is
 * no track id and nothing is counted.
 */
final class TrackedTopologyCount {
    private TrackedTopologyCount() {
    }

    /** {@code acks} acks were folded into another one. */
    static void folded(int acks) {
        String trackId = LocalExecutor.getTrackId();
        if (trackId == null || acks <= 0) {
            return;
        }
        if (RegisteredGlobalState.getState(trackId) instanceof Map<?, ?> counts && counts.get("processed") instanceof AtomicInteger processed) {
            processed.addAndGet(acks);
        }
    }
}
