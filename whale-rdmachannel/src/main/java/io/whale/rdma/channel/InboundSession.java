package io.whale.rdma.channel;

import io.whale.rdma.RdmaConfig;
import io.whale.rdma.spi.Completion;
import io.whale.rdma.spi.EndpointHandler;
import io.whale.rdma.spi.Poller;
import io.whale.rdma.spi.RdmaEndpoint;
import io.whale.rdma.spi.RdmaEngine;
import io.whale.rdma.spi.RegionAccess;
import io.whale.rdma.spi.RegisteredRegion;
import io.whale.rdma.spi.RemoteRegion;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of one accepted connection. Runs on the engine's progress thread only (releases are posted
 * there). READs land in a mirror region at the same offsets as in the sender's ring, so several may be in flight;
 * they may complete out of order but are handed to the server's receive threads in seq order
 * ({@link OrderedDelivery}), and consumption is reported for the longest released prefix, one report covering the
 * releases of up to {@code whale.rdma.consumed.delay.ms} ({@link ConsumptionReport}).
 */
final class InboundSession implements EndpointHandler {
    private static final Logger LOG = LoggerFactory.getLogger(InboundSession.class);

    private enum Phase { AWAIT_HELLO, AWAIT_RING, STREAMING, REFUSED, CLOSED }

    private final ChannelServer server;
    private final RdmaEngine engine;
    private final Handshake handshake;
    private final RdmaEndpoint endpoint;
    private final OrderedDelivery delivery;
    private final TreeMap<Long, InboundBatch> fetched = new TreeMap<>();
    /** Released batches that wait for an earlier one to be released. */
    private final Map<Long, BatchDescriptor> released = new HashMap<>();
    private final long consumedDelayNanos;
    /** Sends a consumption report held back once its delay has passed: a timer of the progress loop. */
    private final Poller reportTimer = this::onReportTimer;
    private ConsumptionReport report;
    private Phase phase = Phase.AWAIT_HELLO;
    private long channelId;
    private byte[] senderNonce;
    private byte[] receiverNonce;
    private RegisteredRegion mirror;
    private RemoteRegion senderRing;
    private long nextDelivery;
    private long nextRelease;
    /** Batches handed to the server and not yet released. */
    private int outstanding;
    /** READs posted and not yet completed: UCX writes into the mirror until each has, even once the connection closed. */
    private int reading;

    InboundSession(ChannelServer server, RdmaEngine engine, Handshake handshake, RdmaEndpoint endpoint,
                   long consumedDelayNanos) {
        this.server = server;
        this.consumedDelayNanos = consumedDelayNanos;
        this.engine = engine;
        this.handshake = handshake;
        this.endpoint = endpoint;
        this.delivery = server.newDelivery();
    }

    String peer() {
        return endpoint.peer();
    }

    @Override
    public void onControl(RdmaEndpoint from, ByteBuffer message) {
        byte type = message.get();
        if (phase == Phase.REFUSED) {
            return; // told why already; whatever the peer sent meanwhile goes unread
        }
        try {
            switch (type) {
                case Control.HELLO -> onHello(message);
                case Control.RING -> onRing(message);
                case Control.BATCH -> onBatch(message);
                case Control.INLINE -> onInline(message);
                default -> protocolError("unexpected control message " + type);
            }
        } catch (RuntimeException e) {
            protocolError("bad control message " + type + ": " + e.getMessage());
        }
    }

    private void onHello(ByteBuffer message) {
        if (phase != Phase.AWAIT_HELLO) {
            protocolError("HELLO after the handshake");
            return;
        }
        channelId = message.getLong();
        senderNonce = Control.bytes(message, Handshake.NONCE_BYTES);
        byte[] mac = Control.bytes(message, Handshake.MAC_BYTES);
        if (!Handshake.matches(handshake.helloMac(channelId, senderNonce), mac)) {
            refuse("topology secret mismatch");
            return;
        }
        receiverNonce = Handshake.newNonce();
        long lastDelivered = server.lastDelivered(channelId);
        sendControl(Control.welcome(handshake.welcomeMac(channelId, senderNonce, receiverNonce), receiverNonce, lastDelivered),
            "WELCOME");
        phase = Phase.AWAIT_RING;
    }

    /**
     * The sender's ring, taken only with a MAC over both nonces (a HELLO played back by someone without the secret
     * cannot announce one) and no larger than this side's {@code whale.rdma.ring.bytes} (the mirror is allocated to it).
     */
    private void onRing(ByteBuffer message) {
        if (phase != Phase.AWAIT_RING) {
            protocolError("RING before a valid HELLO");
            return;
        }
        long address = message.getLong();
        int length = message.getInt();
        long firstSeq = message.getLong();
        byte[] key = Control.bytes(message, message.getShort());
        byte[] mac = Control.bytes(message, Handshake.MAC_BYTES);
        byte[] fields = Control.ringFields(address, length, firstSeq, key);
        if (!Handshake.matches(handshake.ringMac(channelId, senderNonce, receiverNonce, fields), mac)) {
            refuse("ring announcement not proven by the topology secret");
            return;
        }
        if (length <= 0 || length > server.maxRingBytes()) {
            refuse("ring of " + length + " bytes, this receiver takes 1 to " + server.maxRingBytes() + " ("
                   + RdmaConfig.RING_BYTES + ")");
            return;
        }
        nextDelivery = firstSeq; // a new receiver picks up where the sender's unconsumed data starts
        nextRelease = nextDelivery;
        mirror = engine.allocate(length, RegionAccess.LOCAL);
        senderRing = endpoint.attach(address, length, key);
        report = new ConsumptionReport(consumedDelayNanos, length / 4);
        engine.addPoller(reportTimer);
        phase = Phase.STREAMING;
        server.admitted(this);
    }

    /**
     * Closes a connection that has not finished its handshake in time (counted as refused): it holds nothing of a proven
     * sender. Closed, not rejected: a REJECT makes a sender give up for good, and a genuine sender that was merely slow
     * reconnects.
     */
    void handshakeDeadline(long timeoutMillis) {
        if (phase == Phase.AWAIT_HELLO || phase == Phase.AWAIT_RING) {
            server.countRefused();
            protocolError("no handshake within " + timeoutMillis + " ms");
        } else if (phase == Phase.REFUSED) {
            phase = Phase.CLOSED; // a refused peer that did not close on its REJECT
            endpoint.close();
        }
    }

    /**
     * Refuses the peer: counted and told why (a sender told gives up for good, naming the reason). The sender closes the
     * connection once it has read the REJECT, or the handshake deadline does: closing here as soon as the REJECT was
     * sent let the close overtake it, and a sender that saw the close first reconnected, to be refused again.
     */
    private void refuse(String reason) {
        LOG.warn("refused RDMA channel from {}: {}", peer(), reason);
        server.countRefused();
        phase = Phase.REFUSED;
        server.closed(this);
        endpoint.send(Control.reject(reason), Completion.onFailure(error -> {
            phase = Phase.CLOSED;
            endpoint.close();
        }));
    }

    private void onBatch(ByteBuffer message) {
        BatchDescriptor batch = announced(message, "BATCH");
        if (batch == null) {
            return;
        }
        int offset = mirrorOffset(batch);
        reading++;
        try {
            readIntoMirror(batch, offset);
        } catch (RuntimeException e) {
            reading--;
            throw e;
        }
    }

    /**
     * A work request carried by its announcement: copied into the mirror where a READ would have put it, then delivered
     * in seq order with the fetched ones (a READ posted before it may still be in flight).
     */
    private void onInline(ByteBuffer message) {
        BatchDescriptor batch = announced(message, "INLINE");
        if (batch == null) {
            return;
        }
        if (message.remaining() != batch.length()) {
            protocolError("INLINE " + batch + " carries " + message.remaining() + " bytes");
            return;
        }
        int offset = mirrorOffset(batch);
        ByteBuffer target = mirror.buffer().slice(offset, batch.length());
        target.put(message);
        onFetched(new InboundBatch(this, batch, target.flip()));
    }

    /** The announced work request, or null when the connection was dropped for it (named {@code type}). */
    private BatchDescriptor announced(ByteBuffer message, String type) {
        if (phase != Phase.STREAMING) {
            protocolError(type + " before the ring was announced");
            return null;
        }
        BatchDescriptor batch = Control.descriptor(message);
        int capacity = mirror.length();
        int offset = mirrorOffset(batch);
        if (batch.length() <= 0 || offset + (long) batch.length() > capacity || batch.seq() < nextDelivery) {
            protocolError("work request " + batch + " does not fit the ring of " + capacity + " bytes or repeats");
            return null;
        }
        return batch;
    }

    private int mirrorOffset(BatchDescriptor batch) {
        return (int) Math.floorMod(batch.start(), (long) mirror.length());
    }

    private void readIntoMirror(BatchDescriptor batch, int offset) {
        endpoint.read(senderRing, offset, mirror, offset, batch.length(), new Completion() {
            @Override
            public void onSuccess() {
                reading--;
                onFetched(new InboundBatch(InboundSession.this, batch,
                        mirror.buffer().slice(offset, batch.length())));
                freeMirrorIfIdle();
            }

            @Override
            public void onError(String reason) {
                reading--;
                if (phase != Phase.CLOSED) { // the READs in flight when a connection closes fail with it
                    protocolError("READ of " + batch + " failed: " + reason);
                }
                freeMirrorIfIdle();
            }
        });
    }

    private void onFetched(InboundBatch batch) {
        if (phase != Phase.STREAMING) {
            return;
        }
        fetched.put(batch.seq(), batch);
        InboundBatch next;
        while ((next = fetched.remove(nextDelivery)) != null) {
            InboundBatch inOrder = next;
            if (!delivery.submit(() -> server.deliver(inOrder))) {
                // the server's receive threads are gone: the sender keeps the batch for the next receiver
                close("the receiver was closed");
                return;
            }
            nextDelivery++;
            outstanding++;
            server.recordDelivered(channelId, inOrder.seq());
        }
    }

    /** Closes the connection from this side; the sender keeps what was not delivered. */
    void close(String reason) {
        endpoint.close();
        onError(endpoint, reason);
    }

    /** Sends {@code payload} as a notice to this channel's sender; any thread. */
    void notice(ByteBuffer payload) {
        server.notice(this, payload);
    }

    /** Progress thread. */
    void sendNotice(ByteBuffer notice) {
        if (phase == Phase.STREAMING) {
            sendControl(notice, "a notice");
        }
    }

    void release(InboundBatch batch) {
        engine.execute(() -> onReleased(batch));
    }

    private void onReleased(InboundBatch batch) {
        outstanding--;
        released.put(batch.seq(), batch.descriptor());
        long seq = -1;
        long end = -1;
        long bytes = 0;
        BatchDescriptor next;
        while ((next = released.remove(nextRelease)) != null) {
            seq = nextRelease;
            end = next.end();
            bytes += next.length();
            nextRelease++;
        }
        if (phase == Phase.STREAMING && seq >= 0 && report.released(seq, end, bytes, System.nanoTime())) {
            sendReport();
        }
        freeMirrorIfIdle();
    }

    /** Progress thread, at every turn of its loop. */
    private long onReportTimer(long nowNanos) {
        if (phase == Phase.STREAMING && report.due(nowNanos)) {
            sendReport();
        }
        return report.deadline();
    }

    private void sendReport() {
        long seq = report.seq();
        sendControl(report.take(), "CONSUMED " + seq);
    }

    /**
     * A control message that fails closes the connection: the sender reconnects and announces what this side did not
     * report consumed, where a lost CONSUMED would leave its ring full on a connection that looks up. Progress thread.
     */
    private void sendControl(ByteBuffer message, String what) {
        endpoint.send(message, Completion.onFailure(reason -> {
            if (phase != Phase.CLOSED) {
                close(what + " to " + peer() + " failed: " + reason);
            }
        }));
    }

    private void protocolError(String reason) {
        LOG.warn("RDMA channel from {} dropped: {}", peer(), reason);
        close(reason);
    }

    @Override
    public void onError(RdmaEndpoint from, String reason) {
        if (phase == Phase.CLOSED) {
            return;
        }
        if (phase == Phase.REFUSED) {
            phase = Phase.CLOSED; // the refused sender closed, as told
            endpoint.close();
            return;
        }
        boolean wasStreaming = phase == Phase.STREAMING;
        phase = Phase.CLOSED;
        server.closed(this);
        if (wasStreaming) {
            engine.removePoller(reportTimer); // a report held back is moot: a reconnecting sender learns from WELCOME
        }
        fetched.clear();
        if (senderRing != null) {
            senderRing.close();
        }
        freeMirrorIfIdle();
        if (wasStreaming) {
            String peer = peer();
            delivery.submit(() -> server.channelLost(peer, reason)); // after the batches already queued
        }
    }

    /**
     * Frees the mirror once the connection is closed, no batch in it is still being delivered and no READ into it is in
     * flight: freed under a READ that had not ended, UCX copied the late data into unmapped memory and the JVM died
     * (SIGSEGV in the progress thread, CI of 2026-11-29).
     */
    private void freeMirrorIfIdle() {
        if (phase == Phase.CLOSED && outstanding == 0 && reading == 0 && mirror != null) {
            mirror.close();
            mirror = null;
        }
    }
}
