package io.whale.rdma.storm;

import io.whale.rdma.channel.BackpressureException;
import io.whale.rdma.channel.ChannelClosedException;
import io.whale.rdma.channel.ChannelListener;
import io.whale.rdma.channel.ChannelSender;
import io.whale.flow.ConnectionCredit;
import io.whale.flow.CreditedConnection;
import io.whale.flow.FrameWindow;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.grouping.Load;
import org.apache.storm.messaging.ConnectionWithStatus;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.BackPressureStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's connection to one remote worker over an RDMA channel, in the role of Netty's {@code Client}.
 * Messages keep their send order. While the connection is down they wait in the channel's ring and go out after
 * the reconnect; when the ring is full they wait up to {@code whale.rdma.send.timeout.ms} if connected (a slow
 * receiver), else the rest of the batch is dropped with an error line and counted, leaving replay to Storm's
 * acking as Netty does — never silently.
 *
 * <p>It returns credit as the patched Netty client does ({@link CreditedConnection}): the receiver's CREDIT notices
 * credit its {@link FrameWindow} or go to its {@link io.whale.flow.RelayLink}. The window is enforced while connected. Unlike
 * Netty's, a connection that went down keeps what was not consumed and sends it after the reconnect, so frames are
 * lost, and the relay told so, only when the channel gives up.
 */
final class RdmaClient extends ConnectionWithStatus implements ChannelListener, CreditedConnection {
    private static final Logger LOG = LoggerFactory.getLogger(RdmaClient.class);

    private final String remote;
    private final AtomicBoolean[] remoteBpStatus;
    private final Duration sendTimeout;
    private final RdmaMetrics metrics;
    private final ConnectionCredit credit;
    private volatile ChannelSender channel;
    private volatile Map<Integer, Double> serverLoad;

    RdmaClient(String remote, AtomicBoolean[] remoteBpStatus, Duration sendTimeout, RdmaMetrics metrics,
               FrameWindow frameWindow) {
        this.remote = remote;
        this.remoteBpStatus = remoteBpStatus;
        this.sendTimeout = sendTimeout;
        this.metrics = metrics;
        this.credit = new ConnectionCredit(frameWindow);
    }

    /** Set right after the channel is opened with this client as its listener. */
    void attach(ChannelSender channel) {
        this.channel = channel;
    }

    @Override
    public void send(Iterator<TaskMessage> msgs) {
        while (msgs.hasNext()) {
            TaskMessage message = msgs.next();
            ByteBuffer header = StormFrames.taskHeader(message.task());
            ByteBuffer body = ByteBuffer.wrap(message.message());
            try {
                if (!channel.trySend(header, body)) {
                    if (channel.state() != ChannelSender.State.CONNECTED) {
                        drop(1 + count(msgs), "the connection is down (" + channel.lastError()
                                + ") and its ring is full");
                        return;
                    }
                    channel.send(header, body, sendTimeout);
                }
                metrics.messagesSent.inc();
                metrics.bytesSent.inc(StormFrames.TASK_HEADER_BYTES + message.message().length);
            } catch (BackpressureException | ChannelClosedException e) {
                drop(1 + count(msgs), e.getMessage());
                return;
            }
        }
    }

    private void drop(int messages, String why) {
        metrics.messagesDropped.inc(messages);
        LOG.error("Dropping {} messages to {} ({} dropped by this worker so far): {}", messages, remote,
                metrics.messagesDropped.getCount(), why);
    }

    private static int count(Iterator<TaskMessage> rest) {
        int n = 0;
        while (rest.hasNext()) {
            rest.next();
            n++;
        }
        return n;
    }

    @Override
    public void onNotice(ByteBuffer notice) {
        try {
            byte kind = notice.get();
            switch (kind) {
                case StormFrames.BACKPRESSURE -> applyBackPressure(StormFrames.readBackPressure(notice));
                case StormFrames.LOAD -> serverLoad = StormFrames.readLoad(notice);
                case StormFrames.CREDIT -> credit(StormFrames.readCredit(notice));
                default -> LOG.warn("Ignoring a notice of unknown kind {} from {}", kind, remote);
            }
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            LOG.warn("Ignoring a malformed notice from {}: {}", remote, e.toString());
        }
    }

    private void credit(TaskMessage credit) {
        if (this.credit.takeCredits(List.of(credit)) != null) {
            LOG.warn("Ignoring a credit for task {} from {}", credit.task(), remote);
        }
    }

    private void applyBackPressure(StormFrames.BackPressureUpdate update) {
        setAll(update.underPressure(), true);
        setAll(update.relieved(), false);
        LOG.debug("Backpressure update from {}: on {}, off {}", remote, update.underPressure(), update.relieved());
    }

    private void setAll(Collection<Integer> tasks, boolean underPressure) {
        for (int task : tasks) {
            if (task >= 0 && task < remoteBpStatus.length) {
                remoteBpStatus[task].set(underPressure);
            } else {
                LOG.error("Backpressure update from {} names task {} outside 0..{}", remote, task,
                        remoteBpStatus.length - 1);
            }
        }
    }

    @Override
    public void onConnected(String peer) {
        credit.connected();
    }

    @Override
    public void onDisconnected(String peer, String reason) {
        credit.frameWindow().onDisconnected(); // the relay's frames wait in the ring for the reconnect
        LOG.warn("RDMA connection to {} lost: {}; reconnecting, messages wait in the ring", remote, reason);
    }

    @Override
    public void onFailed(String peer, String reason) {
        credit.disconnected();
        LOG.error("RDMA connection to {} gave up: {}", remote, reason);
    }

    @Override
    public ConnectionCredit credit() {
        return credit;
    }

    @Override
    public Status status() {
        return switch (channel.state()) {
            case CONNECTED -> Status.Ready;
            case CONNECTING, DISCONNECTED -> Status.Connecting;
            case FAILED, CLOSED -> Status.Closed;
        };
    }

    @Override
    public Map<Integer, Load> getLoad(Collection<Integer> tasks) {
        Map<Integer, Double> loads = serverLoad;
        Map<Integer, Load> result = new HashMap<>();
        if (loads != null) {
            double connectionLoad = Math.min(1.0, channel.pendingBytes() / (double) channel.ringBytes());
            for (Integer task : tasks) {
                Double load = loads.get(task);
                if (load != null) {
                    result.put(task, new Load(true, load, connectionLoad));
                }
            }
        }
        return result;
    }

    @Override
    public void sendLoadMetrics(Map<Integer, Double> taskToLoad) {
        throw new UnsupportedOperationException("a client connection does not send load metrics");
    }

    @Override
    public void sendBackPressureStatus(BackPressureStatus bpStatus) {
        throw new UnsupportedOperationException("a client connection does not send backpressure status");
    }

    @Override
    public int getPort() {
        return channel.remote().getPort();
    }

    /** Gives queued messages up to the send timeout to reach the peer, then closes (as Netty's client does). */
    @Override
    public void close() {
        try {
            if (channel.state() == ChannelSender.State.CONNECTED && !channel.awaitDrained(sendTimeout)) {
                LOG.warn("Closing the RDMA connection to {} with {} bytes not yet consumed", remote,
                        channel.pendingBytes());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ChannelClosedException e) {
            LOG.debug("RDMA connection to {} was already closed", remote);
        }
        channel.close();
    }

    @Override
    public String toString() {
        return "rdma-client-" + remote;
    }
}
