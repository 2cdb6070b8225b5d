package io.whale.rdma.storm;

import com.codahale.metrics.Counter;
import java.util.function.Function;
import org.apache.storm.Constants;
import org.apache.storm.metrics2.StormMetricRegistry;

/**
 * Worker-level counters of the RDMA transport in Storm's metrics registry (component {@code __system}, task -1,
 * next to the WOC counters). Without a registry (the deprecated {@code prepare(Map)}) they count unregistered.
 */
final class RdmaMetrics {
    final Counter messagesSent;
    final Counter bytesSent;
    final Counter messagesReceived;
    final Counter messagesDropped;
    final Counter messagesMalformed;

    private RdmaMetrics(Function<String, Counter> counter) {
        messagesSent = counter.apply("rdma-messages-sent");
        bytesSent = counter.apply("rdma-bytes-sent");
        messagesReceived = counter.apply("rdma-messages-received");
        messagesDropped = counter.apply("rdma-messages-dropped");
        messagesMalformed = counter.apply("rdma-messages-malformed");
    }

    static RdmaMetrics registeredIn(StormMetricRegistry registry) {
        return new RdmaMetrics(name -> registry.counter(name, Constants.SYSTEM_COMPONENT_ID,
                (int) Constants.SYSTEM_TASK_ID));
    }

    static RdmaMetrics unregistered() {
        return new RdmaMetrics(name -> new Counter());
    }
}
