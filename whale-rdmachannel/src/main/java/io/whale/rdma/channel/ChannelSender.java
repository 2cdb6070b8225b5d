package io.whale.rdma.channel;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.ring.RingIndex;
import io.whale.rdma.slicing.StreamSlicer;
import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.Poller;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending end of a channel: messages are framed ({@code int length | bytes}) straight into a ring region
 * registered once; stream slicing turns the open batch into a work request (MMS or WTL), announced to the
 * receiver with a BATCH control message; the receiver READs it (a small one it finds inside its announcement) and
 * reports consumption, which moves the tail.
 *
 * <p>Ordering: messages are delivered in {@link #send} order (per channel, as with one Netty connection).
 * Backpressure: a full ring never overwrites unconsumed data; {@link #send} waits up to its timeout and then
 * throws {@link BackpressureException}; {@link #trySend} returns false. While the connection is down messages
 * keep waiting in the ring (bounded by its size) and go out after the automatic reconnect.
 *
 * <p>Thread-safe: any number of threads may send; one lock orders them.
 */
public final class ChannelSender implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelSender.class);
    static final int FRAME_HEADER = Integer.BYTES;
    private static final ByteBuffer NO_HEADER = ByteBuffer.allocate(0);

    /** Life cycle of the connection behind the channel. */
    public enum State { CONNECTING, CONNECTED, DISCONNECTED, FAILED, CLOSED }

    private final RdmaEngine engine;
    private final RdmaConfig config;
    private final ScheduledExecutorService connector;
    private final InetSocketAddress remote;
    private final ChannelListener listener;
    private final Handshake handshake;
    private final long channelId = ThreadLocalRandom.current().nextLong();
    private final RegisteredRegion ring;
    private final ByteBuffer ringView;
    private final RingIndex index;
    private final StreamSlicer slicer;
    private final ArrayDeque<BatchDescriptor> unconsumed = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Poller slicingTimer = this::onTimer;

    private State state = State.CONNECTING;
    private RdmaEndpoint endpoint;
    private byte[] nonce;
    private long nextSeq = 1;
    private long openStart = -1;
    /** When the open batch's Wait Time Limit ends; {@link Poller#NO_DEADLINE} (as the slicer's) while none is open. */
    private volatile long deadline = Poller.NO_DEADLINE;
    private int failedAttempts;
    private String lastError = "not connected yet";
    private long batchesSent;
    private long batchesInlined;
    private long messagesSent;

    ChannelSender(RdmaEngine engine, RdmaConfig config, ScheduledExecutorService connector,
                  InetSocketAddress remote, ChannelListener listener) {
        this.engine = engine;
        this.config = config;
        this.connector = connector;
        this.remote = remote;
        this.listener = listener;
        this.handshake = new Handshake(config.secret());
        this.ring = engine.allocate(config.ringBytes(), RegionAccess.PEER_READS);
        this.ringView = ring.buffer();
        this.index = new RingIndex(ring.length());
        this.slicer = new StreamSlicer(config.maxMemorySizeBytes(), config.waitTimeLimitNanos());
        engine.addPoller(slicingTimer);
        connector.execute(this::connectOnce);
    }

    /**
     * Writes one message, waiting up to {@code timeout} for ring space.
     *
     * @throws BackpressureException when the ring stayed full for {@code timeout}
     * @throws ChannelClosedException when the channel is closed or gave up
     * @throws IllegalArgumentException when the message can never fit the ring
     */
    public void send(ByteBuffer message, Duration timeout) {
        send(NO_HEADER, message, timeout);
    }

    /**
     * Writes one message made of {@code header} then {@code body} (gathered into the ring, no intermediate copy),
     * waiting up to {@code timeout} for ring space; same contract as {@link #send(ByteBuffer, Duration)}.
     */
    public void send(ByteBuffer header, ByteBuffer body, Duration timeout) {
        if (!offer(header, body, timeout.toNanos())) {
            lock.lock();
            try {
                throw new BackpressureException("ring to " + remote + " is full (" + index.used() + " of "
                        + index.capacity() + " bytes unconsumed, state " + state
                        + (state == State.CONNECTED ? "" : ", last error: " + lastError) + ")");
            } finally {
                lock.unlock();
            }
        }
    }

    /** Writes one message if the ring has room now; false signals backpressure. */
    public boolean trySend(ByteBuffer message) {
        return offer(NO_HEADER, message, 0);
    }

    /** Writes {@code header} then {@code body} as one message if the ring has room now; false otherwise. */
    public boolean trySend(ByteBuffer header, ByteBuffer body) {
        return offer(header, body, 0);
    }

    private boolean offer(ByteBuffer header, ByteBuffer body, long timeoutNanos) {
        int length = header.remaining() + body.remaining();
        int frame = FRAME_HEADER + length;
        if (frame > index.capacity()) {
            throw new IllegalArgumentException("message of " + length + " bytes cannot fit the ring of "
                    + index.capacity() + " bytes (" + RdmaConfig.RING_BYTES + ")");
        }
        long waitNanos = timeoutNanos;
        lock.lock();
        try {
            long start;
            while (true) {
                ensureUsable();
                if (openStart >= 0 && !index.batchCanGrow(openStart, frame)) {
                    publish(); // a work request is contiguous: close it before the ring wraps
                }
                start = index.reserve(frame);
                if (start != RingIndex.FULL) {
                    break;
                }
                if (waitNanos <= 0) {
                    return false;
                }
                waitNanos = changed.awaitNanos(waitNanos);
            }
            int offset = index.offsetOf(start);
            ringView.putInt(offset, length);
            ringView.put(offset + FRAME_HEADER, header, header.position(), header.remaining());
            ringView.put(offset + FRAME_HEADER + header.remaining(), body, body.position(), body.remaining());
            if (openStart < 0) {
                openStart = start;
            }
            messagesSent++;
            if (slicer.append(frame, System.nanoTime())) {
                publish();
            } else if (deadline == Poller.NO_DEADLINE) {
                deadline = slicer.deadline();
                engine.wake(); // a batch opened: its Wait Time Limit is the progress thread's to keep
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChannelClosedException("interrupted while waiting for ring space to " + remote);
        } finally {
            lock.unlock();
        }
    }

    /** Sends the open batch now instead of waiting for MMS or WTL. */
    public void flush() {
        lock.lock();
        try {
            if (openStart >= 0) {
                publish();
            }
        } finally {
            lock.unlock();
        }
    }

    private void ensureUsable() {
        if (state == State.CLOSED || state == State.FAILED) {
            throw new ChannelClosedException("channel to " + remote + " is " + state + ": " + lastError);
        }
    }

    /** Turns the open batch into a work request. Caller holds the lock. */
    private void publish() {
        BatchDescriptor batch = new BatchDescriptor(nextSeq++, openStart, (int) (index.head() - openStart),
                slicer.messages());
        openStart = -1;
        slicer.reset();
        deadline = Poller.NO_DEADLINE;
        unconsumed.add(batch);
        if (state == State.CONNECTED) {
            announce(endpoint, batch);
        }
    }

    /** A work request of at most {@code whale.rdma.inline.bytes} travels inside its announcement, any other by READ. */
    private void announce(RdmaEndpoint target, BatchDescriptor batch) {
        batchesSent++;
        if (batch.length() <= config.inlineBytes()) {
            batchesInlined++;
            ByteBuffer data = ringView.slice(index.offsetOf(batch.start()), batch.length());
            sendControl(target, Control.inline(batch, data), "INLINE " + batch.seq());
        } else {
            sendControl(target, Control.batch(batch), "BATCH " + batch.seq());
        }
    }

    /**
     * Sends a control message on {@code target}; one that fails takes the connection down (the reconnect announces
     * every unconsumed batch again), where dropping it would leave the ring full on a connection that looks up.
     */
    private void sendControl(RdmaEndpoint target, ByteBuffer message, String what) {
        target.send(message, Completion.onFailure(reason -> {
            target.close();
            onConnectionLost(target, what + " to " + remote + " failed: " + reason);
        }));
    }

    /** Wait Time Limit check, run by the engine's progress thread at every turn; returns when it is next due. */
    private long onTimer(long now) {
        long due = deadline;
        if (due == Poller.NO_DEADLINE || now - due < 0) {
            return due;
        }
        lock.lock();
        try {
            if (openStart >= 0 && slicer.expired(now)) {
                publish();
            }
            return deadline;
        } finally {
            lock.unlock();
        }
    }

    private void connectOnce() {
        lock.lock();
        try {
            if (state == State.CLOSED || state == State.FAILED) {
                return;
            }
        } finally {
            lock.unlock();
        }
        RdmaEndpoint connected;
        try {
            connected = engine.connect(remote, new Handler(),
                    Duration.ofMillis(config.handshakeTimeoutMillis()));
        } catch (RuntimeException e) {
            onConnectionLost(null, "connect to " + remote + " failed: " + e.getMessage());
            return;
        }
        lock.lock();
        try {
            if (state == State.CLOSED) {
                connected.close();
                return;
            }
            endpoint = connected;
            nonce = Handshake.newNonce();
            sendControl(connected, Control.hello(channelId, nonce, handshake.helloMac(channelId, nonce)), "HELLO");
        } finally {
            lock.unlock();
        }
        onConnector(config.handshakeTimeoutMillis(), () -> {
            if (currentEndpointStillHandshaking(connected)) {
                connected.close();
                onConnectionLost(connected, "no handshake answer from " + remote + " within "
                        + config.handshakeTimeoutMillis() + " ms");
            }
        });
    }

    private <T> T underLock(java.util.function.Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    private boolean isCurrent(RdmaEndpoint candidate) {
        return underLock(() -> endpoint == candidate);
    }

    private boolean currentEndpointStillHandshaking(RdmaEndpoint candidate) {
        return underLock(() -> endpoint == candidate && state != State.CONNECTED);
    }

    private void onWelcome(RdmaEndpoint from, ByteBuffer message) {
        byte[] mac = Control.bytes(message, Handshake.MAC_BYTES);
        byte[] receiverNonce = Control.bytes(message, Handshake.NONCE_BYTES);
        long lastDelivered = message.getLong();
        lock.lock();
        try {
            if (from != endpoint || state != State.CONNECTING && state != State.DISCONNECTED) {
                return;
            }
            if (!Handshake.matches(handshake.welcomeMac(channelId, nonce, receiverNonce), mac)) {
                giveUp("receiver at " + remote + " could not prove the topology secret");
                from.close();
                return;
            }
            while (!unconsumed.isEmpty() && unconsumed.peek().seq() <= lastDelivered) {
                index.releaseTo(unconsumed.poll().end()); // delivered before the reconnect: do not duplicate
            }
            long firstSeq = unconsumed.isEmpty() ? nextSeq : unconsumed.peek().seq();
            byte[] ringFields = Control.ringFields(ring.address(), ring.length(), firstSeq, ring.remoteKey());
            sendControl(from, Control.ring(ringFields, handshake.ringMac(channelId, nonce, receiverNonce, ringFields)), "RING");
            state = State.CONNECTED;
            failedAttempts = 0;
            for (BatchDescriptor batch : unconsumed) {
                announce(from, batch);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        LOG.info("RDMA channel {} to {} connected", Long.toHexString(channelId), remote);
        listener.onConnected(remote.toString());
    }

    private void onConsumed(RdmaEndpoint from, ByteBuffer message) {
        long seq = message.getLong();
        long end = message.getLong();
        lock.lock();
        try {
            if (from != endpoint) {
                return;
            }
            while (!unconsumed.isEmpty() && unconsumed.peek().seq() <= seq) {
                unconsumed.poll();
            }
            if (end > index.tail()) {
                index.releaseTo(end);
            }
            slicer.onWorkRequestConsumed(System.nanoTime());
            deadline = slicer.deadline();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void onConnectionLost(RdmaEndpoint from, String reason) {
        boolean retry;
        lock.lock();
        try {
            if (from != endpoint || state == State.CLOSED || state == State.FAILED) {
                return;
            }
            endpoint = null;
            lastError = reason;
            failedAttempts++;
            retry = config.reconnectMaxAttempts() < 0 || failedAttempts <= config.reconnectMaxAttempts();
            if (retry) {
                state = State.DISCONNECTED;
                changed.signalAll();
            } else {
                giveUp(reason + " (after " + (failedAttempts - 1) + " reconnect attempts)");
            }
        } finally {
            lock.unlock();
        }
        if (retry) {
            LOG.warn("RDMA channel to {}: {}; reconnecting", remote, reason);
            listener.onDisconnected(remote.toString(), reason);
            onConnector(backoffMillis(), this::connectOnce);
        }
    }

    /**
     * Runs {@code task} on the connector thread after {@code delayMillis}. Once the transport closes, the connector
     * is shut down before the engine, so the engine's thread may still see a connection end: there is nothing left
     * to do then, and a throw would kill that thread (in a Storm worker, the whole process).
     */
    private void onConnector(long delayMillis, Runnable task) {
        try {
            connector.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            LOG.debug("RDMA channel to {}: the transport is closing, nothing more is scheduled", remote);
        }
    }

    private long backoffMillis() {
        int exponent = Math.min(20, Math.max(0, failedAttempts - 1));
        return Math.min(config.reconnectMaxMillis(), config.reconnectMinMillis() << exponent);
    }

    /** Caller holds the lock. */
    private void giveUp(String reason) {
        state = State.FAILED;
        lastError = reason;
        changed.signalAll();
        LOG.error("RDMA channel to {} failed: {}", remote, reason);
        onConnector(0, () -> listener.onFailed(remote.toString(), reason));
    }

    /** Waits until connected; false on timeout. Throws if the channel failed or was closed. */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        long waitNanos = timeout.toNanos();
        lock.lock();
        try {
            while (state != State.CONNECTED) {
                ensureUsable();
                if (waitNanos <= 0) {
                    return false;
                }
                waitNanos = changed.awaitNanos(waitNanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every message sent so far was consumed by the receiver (the open batch is flushed first).
     * False on timeout.
     */
    public boolean awaitDrained(Duration timeout) throws InterruptedException {
        flush();
        long waitNanos = timeout.toNanos();
        lock.lock();
        try {
            while (!unconsumed.isEmpty()) {
                ensureUsable();
                if (waitNanos <= 0) {
                    return false;
                }
                waitNanos = changed.awaitNanos(waitNanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    public State state() {
        return underLock(() -> state);
    }

    /** The reason of the last connection failure. */
    public String lastError() {
        return underLock(() -> lastError);
    }

    /** Ring bytes (including padding) written and not yet consumed. */
    public long pendingBytes() {
        return underLock(() -> index.used());
    }

    /** Capacity of the ring: the most bytes that can wait unconsumed. */
    public long ringBytes() {
        return index.capacity();
    }

    public InetSocketAddress remote() {
        return remote;
    }

    /** Work requests announced so far, including ones sent again after a reconnect. */
    public long batchesSent() {
        return underLock(() -> batchesSent);
    }

    /** Announcements that carried their work request (counted in {@link #batchesSent()} too). */
    public long batchesInlined() {
        return underLock(() -> batchesInlined);
    }

    public long messagesSent() {
        return underLock(() -> messagesSent);
    }

    /** Closes at once; unconsumed messages are dropped (call {@link #awaitDrained} first to avoid that). */
    @Override
    public void close() {
        RdmaEndpoint toClose;
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            lastError = "closed by the application";
            toClose = endpoint;
            endpoint = null;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        engine.removePoller(slicingTimer);
        if (toClose != null) {
            toClose.close();
        }
        ring.close();
    }

    private final class Handler implements EndpointHandler {
        @Override
        public void onControl(RdmaEndpoint from, ByteBuffer message) {
            byte type = message.get();
            switch (type) {
                case Control.WELCOME -> onWelcome(from, message);
                case Control.CONSUMED -> onConsumed(from, message);
                case Control.NOTICE -> {
                    if (isCurrent(from)) {
                        listener.onNotice(message);
                    }
                }
                case Control.REJECT -> {
                    String reason = Control.text(message);
                    lock.lock();
                    try {
                        if (from == endpoint) {
                            giveUp("receiver at " + remote + " refused the channel: " + reason);
                        }
                    } finally {
                        lock.unlock();
                    }
                    from.close();
                }
                default -> LOG.warn("unexpected control message {} from {}", type, from.peer());
            }
        }

        @Override
        public void onError(RdmaEndpoint from, String reason) {
            onConnectionLost(from, reason);
        }
    }
}
