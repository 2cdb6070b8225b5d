package io.whale.rdma.storm;

import io.whale.rdma.channel.ChannelServer;
import io.whale.rdma.channel.InboundBatch;
import io.whale.rdma.channel.InboundHandler;
import io.whale.rdma.channel.RdmaTransport;
import io.whale.flow.CreditReturn;
import io.whale.flow.InboundCallback;
import java.net.InetSocketAddress;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.storm.grouping.Load;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.IConnectionCallback;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.BackPressureStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's receiving side, in the role of Netty's {@code Server}: every accepted RDMA channel's work requests
 * become TaskMessage batches for the worker's callback, in channel order; backpressure status and load metrics go
 * back to every connected sender as channel notices, and a new sender first gets the worker's current
 * backpressure status. As the patched Netty server does, it returns the credit a batch is owed ({@link CreditReturn}):
 * as CREDIT notices to that batch's sender only.
 */
final class RdmaServer implements IConnection, InboundHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RdmaServer.class);

    private final IConnectionCallback callback;
    private final Supplier<Object> newConnectionResponse;
    private final ChannelServer server;
    private final RdmaMetrics metrics;
    private final CreditReturn creditReturn;

    RdmaServer(RdmaTransport transport, InetSocketAddress bindAddress, IConnectionCallback callback,
               Supplier<Object> newConnectionResponse, RdmaMetrics metrics, Map<String, Object> topoConf) {
        this.callback = callback;
        this.metrics = metrics;
        this.creditReturn = new CreditReturn(topoConf);
        this.newConnectionResponse = newConnectionResponse;
        this.server = transport.bind(bindAddress, this);
    }

    @Override
    public void onBatch(InboundBatch batch) {
        List<TaskMessage> messages = new ArrayList<>(batch.messageCount());
        try {
            batch.forEachMessage(message -> {
                try {
                    messages.add(StormFrames.taskMessage(message));
                } catch (BufferUnderflowException | IllegalArgumentException e) {
                    metrics.messagesMalformed.inc();
                    LOG.warn("Dropping a malformed message from {} ({} so far): {}", batch.peer(),
                            metrics.messagesMalformed.getCount(), e.toString());
                }
            });
        } finally {
            batch.release(); // the messages were copied out: the sender may reuse its ring space
        }
        if (!messages.isEmpty()) {
            metrics.messagesReceived.inc(messages.size());
            Consumer<ByteBuffer> sender = batch.replies();
            try {
                creditReturn.handOver(messages, inbound -> InboundCallback.deliver(callback, messages, inbound),
                    credit -> sender.accept(StormFrames.credit(credit)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public ByteBuffer greeting() {
        Object response = newConnectionResponse == null ? null : newConnectionResponse.get();
        return response instanceof BackPressureStatus status ? StormFrames.backPressure(status) : null;
    }

    @Override
    public void onChannelLost(String peer, String reason) {
        LOG.info("RDMA sender {} went away: {}", peer, reason);
    }

    @Override
    public void sendBackPressureStatus(BackPressureStatus bpStatus) {
        LOG.debug("Sending backpressure status to connected workers: {}", bpStatus);
        server.broadcast(StormFrames.backPressure(bpStatus));
    }

    @Override
    public void sendLoadMetrics(Map<Integer, Double> taskToLoad) {
        server.broadcast(StormFrames.load(taskToLoad));
    }

    @Override
    public void send(Iterator<TaskMessage> msgs) {
        throw new UnsupportedOperationException("a server connection does not send task messages");
    }

    @Override
    public Map<Integer, Load> getLoad(Collection<Integer> tasks) {
        throw new UnsupportedOperationException("a server connection has no remote load");
    }

    @Override
    public int getPort() {
        return server.address().getPort();
    }

    @Override
    public void close() {
        server.close();
    }

    @Override
    public String toString() {
        return "rdma-server-" + server.address();
    }
}
