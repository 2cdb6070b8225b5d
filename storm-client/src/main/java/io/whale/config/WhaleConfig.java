package io.whale.config;

import org.apache.storm.validation.ConfigValidationAnnotations.CustomValidator;
import org.apache.storm.validation.ConfigValidationAnnotations.Password;
import org.apache.storm.validation.Validated;

/**
 * Every {@code whale.*} topology key with a fixed name. Registered with Storm's config validation
 * ({@code META-INF/services/org.apache.storm.validation.Validated}), so a daemon refuses a bad value in
 * {@code storm.yaml} at start, and checked at submit by {@link WhaleConfigValidation#validateTopoConf} (both in
 * {@code StormSubmitter} and in Nimbus): a bad value fails the submit with a message naming the key, the value
 * and what is accepted, instead of crashing every worker. What each key accepts: {@link WhaleConfigValidation}.
 * {@code whale.rdma.ucx.*} (UCX's own settings, free-form) is the one family of keys not listed here.
 * Also here: one key of Storm's that Whale reads and Storm 2.8.3 does not know ({@link #NETTY_TLS_HOSTNAME_VERIFICATION}).
 */
public final class WhaleConfig implements Validated {
    /** Worker-oriented communication: one BatchTuple frame per destination worker. Boolean, default false. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_ENABLED = "whale.woc.enabled";

    /**
     * Tuples (one per destination task) that WOC frames in flight from one worker to one destination worker may
     * carry before the next frame waits; credit returns as the destination dispatches them, over Storm's Netty
     * transport. Whole number, 0 = no window, default 8192.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_WINDOW_TUPLES = "whale.woc.window.tuples";

    /**
     * The queueing (ms) beyond the round trip that each frame window is sized to allow, from the delivery rate and
     * round trip its credits show, never above {@link #WOC_WINDOW_TUPLES}. Whole number, 0 = the window is always
     * {@link #WOC_WINDOW_TUPLES}, default 50.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_WINDOW_DELAY_MS = "whale.woc.window.delay.ms";

    /**
     * How long (ms) a destination worker may return no credit while a sender waits for it before the sender counts it
     * stalled (partitioned, stopped, wedged, or only silent for a while): its WOC frames then no longer hold the
     * executor (they go on into {@link #WOC_STALL_BUFFER_BYTES}, then are dropped and counted), and the relay sends
     * around it, until its next credit. Whole number, 0 = wait for ever, default 2000.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_STALL_MS = "whale.woc.stall.ms";

    /**
     * Bytes of WOC frames a sender sends on, beyond the frame window, to a stalled destination ({@link #WOC_STALL_MS})
     * whose connection is still open, before it drops them (counted): the transport buffers them, as Storm's client
     * buffers a live connection's messages up to {@code storm.messaging.netty.buffer.high.watermark} (keep this below
     * it). A silence that ends within the buffer loses nothing. Whole number, 0 = drop at once, default 4194304 (4 MiB).
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_STALL_BUFFER_BYTES = "whale.woc.stall.buffer.bytes";

    /**
     * Ack combining: the acks a worker's tasks send to one acker task (on this worker or another) for one root reach it
     * as one ack carrying their XOR, within {@link #WOC_ACK_COMBINE_DELAY_MS}; fails are never held. Boolean, default
     * {@link #WOC_ENABLED}'s value; false sends every ack as Storm does.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_ACK_COMBINE = "whale.woc.ack.combine";

    /**
     * How long (ms) a combined ack waits for more acks of its root, when the worker did not count the deliveries that
     * owe it acks ({@link #WOC_ACK_COMBINE_WAIT_MS}). Whole number from 1 to 1000, default 5.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_ACK_COMBINE_DELAY_MS = "whale.woc.ack.combine.delay.ms";

    /**
     * How long (ms), from its delivery, the acks of a root the worker handed to several of its tasks (a WOC frame's
     * tuples, a local emit's) wait for the rest of those tasks': the last one sends them all at once, so a tree completes
     * no later than it would, with one ack per worker. Past it they go, and later ones wait
     * {@link #WOC_ACK_COMBINE_DELAY_MS}. Whole number from 0 (count no deliveries) to 60,000, default 1,000.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String WOC_ACK_COMBINE_WAIT_MS = "whale.woc.ack.combine.wait.ms";

    /**
     * The longest message, in bytes, a worker's Netty transport takes from a peer (a task message, a WOC or relay frame, a
     * SASL token, a backpressure status): a peer announcing a longer one is disconnected before its bytes are buffered.
     * Whole number from 1,048,576 to 2,147,483,647, default 67,108,864 (64 MiB).
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String NETTY_MESSAGE_MAX_BYTES = "whale.netty.message.max.bytes";

    /**
     * With Storm's TLS between workers: whether a worker's TLS client checks that the server's certificate names the
     * address it connects to (patch 0031). Storm's key (apache/storm#8987), which Storm 2.8.3 does not know. Boolean,
     * default true.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String NETTY_TLS_HOSTNAME_VERIFICATION = "storm.messaging.netty.tls.hostnameVerification";

    /**
     * How a WOC frame reaches the destination workers: {@code sequential} (the source sends one frame to each, the
     * default), {@code binomial} (a static relay tree) or {@code nonblocking} (Algorithm 1, out-degree bounded by
     * d*, reshaped live). A tree needs {@link #WOC_ENABLED}.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_STRUCTURE = "whale.multicast.structure";

    /** The out-degree bound d* of a {@code nonblocking} tree: a whole number from 1, or {@code auto} (the M/D/1 bound). */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_MAX_OUTDEGREE = "whale.multicast.max.outdegree";

    /** Q of the model: the source's transfer queue capacity, in tuples, that d* keeps the mean queue under. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_QUEUE_CAPACITY = "whale.multicast.queue.capacity";

    /** The warning waterline l_w, in tuples; at most {@link #MULTICAST_QUEUE_CAPACITY}. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_WATERLINE = "whale.multicast.waterline";

    /** T_up, the scale-up threshold, in (0, 1]. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_T_UP = "whale.multicast.t.up";

    /** T_down, the scale-down threshold, above 0. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_T_DOWN = "whale.multicast.t.down";

    /** Δt of the monitors and the controller, milliseconds. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_MONITOR_INTERVAL_MS = "whale.multicast.monitor.interval.ms";

    /** α of the input-rate smoothing (λ ← α·λ + (1 − α)·N), in [0, 1), as the model's monitors take it. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_RATE_ALPHA = "whale.multicast.rate.alpha";

    /**
     * Milliseconds between forced switches of a live tree (d* = 1, then the full tree, and so on) whatever the
     * load says; 0 (the default) leaves the switching to the controller. For exercising switches in tests and drills.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String MULTICAST_FORCED_SWITCH_MS = "whale.multicast.forced.switch.ms";

    /** {@code netty} or {@code rdma}; unset, Storm's {@code storm.messaging.transport} decides. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String TRANSPORT = "whale.transport";

    /** The RDMA provider: {@code ucx} (default) or {@code disni}. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_PROVIDER = "whale.rdma.provider";

    /** Max Memory Size of one work request, bytes. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_MMS_BYTES = "whale.rdma.mms.bytes";

    /** Wait Time Limit before a partial work request is sent, milliseconds (fractions allowed). */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_WTL_MS = "whale.rdma.wtl.ms";

    /** Registered ring per connection, bytes; at least {@link #RDMA_MMS_BYTES}. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_RING_BYTES = "whale.rdma.ring.bytes";

    /** The secret RDMA peers prove in the handshake; derived from the topology when unset. Masked in logs. */
    @Password
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_SECRET = "whale.rdma.secret";

    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_HANDSHAKE_TIMEOUT_MS = "whale.rdma.handshake.timeout.ms";

    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_RECONNECT_MIN_MS = "whale.rdma.reconnect.min.ms";

    /** At least {@link #RDMA_RECONNECT_MIN_MS}. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_RECONNECT_MAX_MS = "whale.rdma.reconnect.max.ms";

    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_RECONNECT_MAX_ATTEMPTS = "whale.rdma.reconnect.max.attempts";

    /** Upper bound of the RDMA progress thread's park when idle, microseconds (0: spin). */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_POLL_MAX_PARK_US = "whale.rdma.poll.max.park.us";

    /**
     * Whether an idle RDMA progress thread sleeps in UCX's wait for events (default true) or polls, parking up to
     * {@link #RDMA_POLL_MAX_PARK_US} (false: the lowest latency, for cores of its own).
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_PROGRESS_WAIT = "whale.rdma.progress.wait";

    /**
     * Idle turns an RDMA progress thread spins, each a UCX progress call, before it yields and then sleeps: a burst's
     * next message is found within microseconds, at the price of the calls (over UCX's TCP transport each is a socket
     * poll).
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_PROGRESS_SPINS = "whale.rdma.progress.spins";

    /** Idle turns an RDMA progress thread yields its core, each with a progress call, after its spins, before it sleeps. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_PROGRESS_YIELDS = "whale.rdma.progress.yields";

    /**
     * The largest RDMA work request, bytes, that travels inside its announcement (a two-sided message) instead of being
     * fetched by a one-sided READ: a small batch then costs the receiver no READ round trip and the sender no READ to
     * serve (over UCX's TCP transport a READ is a request and a reply). 0 fetches every batch by READ, the paper's
     * channel; at most {@link Defaults#RDMA_INLINE_BYTES}, as a control message carries at most 4 KiB.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_INLINE_BYTES = "whale.rdma.inline.bytes";

    /**
     * How long an RDMA receiver may hold its report that work requests were consumed, milliseconds, so that one report
     * covers several (a report is cumulative): each report is a message the sender's progress thread wakes for. A
     * report goes at once when a quarter of the ring waits on it. 0 reports every work request as it is consumed, the
     * paper's channel; at most {@link Defaults#RDMA_CONSUMED_DELAY_MS_MAX}.
     */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_CONSUMED_DELAY_MS = "whale.rdma.consumed.delay.ms";

    /** Address the RDMA receiving side binds, with the worker's port. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_BIND_HOST = "whale.rdma.bind.host";

    /** How long an RDMA send waits for ring space while connected before the batch is dropped (and counted). */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_SEND_TIMEOUT_MS = "whale.rdma.send.timeout.ms";

    /** Threads that deliver what an RDMA server receives (in order per connection), off the progress thread. */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_RECEIVE_THREADS = "whale.rdma.receive.threads";

    /** How long an RDMA listener retries a port still in use before the worker fails, milliseconds (0: once). */
    @CustomValidator(validatorClass = WhaleConfigValidation.KeyValidator.class)
    public static final String RDMA_BIND_TIMEOUT_MS = "whale.rdma.bind.timeout.ms";

    /** Prefix of UCX's own settings for this topology's workers ({@code whale.rdma.ucx.TLS} is {@code UCX_TLS}). */
    public static final String RDMA_UCX_PREFIX = "whale.rdma.ucx.";

    private WhaleConfig() {
    }

    /**
     * The defaults of the keys whose order submit checks against each other's ({@link WhaleConfigValidation}), shared
     * with the workers that read them. A class of its own: Storm validates every field of this class as a key.
     */
    public static final class Defaults {
        /** {@link WhaleConfig#RDMA_MMS_BYTES} when unset: the paper's 256 KiB. */
        public static final int RDMA_MMS_BYTES = 256 * 1024;
        /** {@link WhaleConfig#RDMA_RING_BYTES} when unset: 8 MiB. */
        public static final int RDMA_RING_BYTES = 8 * 1024 * 1024;
        /** {@link WhaleConfig#RDMA_RECONNECT_MIN_MS} when unset. */
        public static final int RDMA_RECONNECT_MIN_MS = 100;
        /** {@link WhaleConfig#RDMA_RECONNECT_MAX_MS} when unset. */
        public static final int RDMA_RECONNECT_MAX_MS = 1_000;
        /** {@link WhaleConfig#RDMA_PROGRESS_SPINS} when unset. */
        public static final int RDMA_PROGRESS_SPINS = 50;
        /** {@link WhaleConfig#RDMA_PROGRESS_YIELDS} when unset. */
        public static final int RDMA_PROGRESS_YIELDS = 10;
        /** {@link WhaleConfig#RDMA_INLINE_BYTES} when unset, and its most: a control message's 4 KiB less its header. */
        public static final int RDMA_INLINE_BYTES = 4000;
        /** {@link WhaleConfig#RDMA_CONSUMED_DELAY_MS} when unset. */
        public static final int RDMA_CONSUMED_DELAY_MS = 10;
        /** The most {@link WhaleConfig#RDMA_CONSUMED_DELAY_MS} takes: a sender's close waits for the last report. */
        public static final int RDMA_CONSUMED_DELAY_MS_MAX = 1_000;
        /** {@link WhaleConfig#WOC_STALL_MS} when unset: how long a partition may hold the other destinations' emits. */
        public static final int WOC_STALL_MS = 2_000;
        /** {@link WhaleConfig#WOC_STALL_BUFFER_BYTES} when unset: a quarter of Storm's 16-MB Netty high watermark. */
        public static final int WOC_STALL_BUFFER_BYTES = 4 * 1024 * 1024;

        private Defaults() {
        }
    }
}
