package io.whale.rdma;

import io.whale.config.WhaleConfig;
import java.util.Map;
import java.util.Objects;

/**
 * The channel's settings, read from a Storm-style configuration map (topology conf) by the keys below.
 * Unknown keys are ignored; missing keys take the documented defaults (paper defaults for MMS and WTL).
 */
public record RdmaConfig(
        String provider,
        int maxMemorySizeBytes,
        long waitTimeLimitNanos,
        int ringBytes,
        byte[] secret,
        long handshakeTimeoutMillis,
        long reconnectMinMillis,
        long reconnectMaxMillis,
        int reconnectMaxAttempts,
        long pollMaxParkMicros,
        boolean progressWait,
        int progressSpins,
        int progressYields,
        int inlineBytes,
        long consumedDelayNanos,
        int receiveThreads,
        long bindTimeoutMillis,
        Map<String, String> ucxSettings) {

    public static final String PROVIDER = WhaleConfig.RDMA_PROVIDER;
    public static final String MMS_BYTES = WhaleConfig.RDMA_MMS_BYTES;
    public static final String WTL_MS = WhaleConfig.RDMA_WTL_MS;
    public static final String RING_BYTES = WhaleConfig.RDMA_RING_BYTES;
    /** Shared topology secret; peers whose secret differs are refused in the handshake. */
    public static final String SECRET = WhaleConfig.RDMA_SECRET;
    public static final String HANDSHAKE_TIMEOUT_MS = WhaleConfig.RDMA_HANDSHAKE_TIMEOUT_MS;
    public static final String RECONNECT_MIN_MS = WhaleConfig.RDMA_RECONNECT_MIN_MS;
    public static final String RECONNECT_MAX_MS = WhaleConfig.RDMA_RECONNECT_MAX_MS;
    public static final String RECONNECT_MAX_ATTEMPTS = WhaleConfig.RDMA_RECONNECT_MAX_ATTEMPTS;
    /** Upper bound of the progress thread's park when idle (back-off instead of a busy spin). */
    public static final String POLL_MAX_PARK_US = WhaleConfig.RDMA_POLL_MAX_PARK_US;
    /** Whether an idle progress thread waits for the transport's events (true) or polls with parks (false). */
    public static final String PROGRESS_WAIT = WhaleConfig.RDMA_PROGRESS_WAIT;
    /** Idle turns the progress thread spins (each a progress call) before it yields, then sleeps. */
    public static final String PROGRESS_SPINS = WhaleConfig.RDMA_PROGRESS_SPINS;
    /** Idle turns the progress thread yields (each with a progress call) after its spins, before it sleeps. */
    public static final String PROGRESS_YIELDS = WhaleConfig.RDMA_PROGRESS_YIELDS;
    /** The largest work request that travels inside its announcement instead of by a READ (0: every one by READ). */
    public static final String INLINE_BYTES = WhaleConfig.RDMA_INLINE_BYTES;
    /** How long a receiver may hold a consumption report so that it covers several work requests (0: none held). */
    public static final String CONSUMED_DELAY_MS = WhaleConfig.RDMA_CONSUMED_DELAY_MS;
    /**
     * Threads per {@code ChannelServer} that run the inbound handler (Storm: deserialization, WOC dispatch,
     * queue publication), off the progress thread; each channel is delivered in order by one of them at a time.
     */
    public static final String RECEIVE_THREADS = WhaleConfig.RDMA_RECEIVE_THREADS;
    /**
     * How long a listener keeps trying to bind its port while it is in use (a previous listener on it still
     * closing, or a connection's end on it); 0 tries once.
     */
    public static final String BIND_TIMEOUT_MS = WhaleConfig.RDMA_BIND_TIMEOUT_MS;
    /**
     * Prefix of UCX settings handed to the UCX context: {@code whale.rdma.ucx.TLS: posix,self} is UCX's
     * {@code UCX_TLS} for this topology's workers (the environment variable still applies when the key is unset).
     */
    public static final String UCX_PREFIX = WhaleConfig.RDMA_UCX_PREFIX;

    public static final String DEFAULT_PROVIDER = "ucx";
    public static final int DEFAULT_MMS_BYTES = WhaleConfig.Defaults.RDMA_MMS_BYTES;
    public static final double DEFAULT_WTL_MS = 1.0;
    public static final int DEFAULT_RING_BYTES = WhaleConfig.Defaults.RDMA_RING_BYTES;
    /** One, as Netty's {@code storm.messaging.netty.server_worker_threads}. */
    public static final int DEFAULT_RECEIVE_THREADS = 1;
    public static final int DEFAULT_BIND_TIMEOUT_MS = 10_000;

    public RdmaConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(secret, "secret");
        if (maxMemorySizeBytes <= 0) {
            throw new IllegalArgumentException(MMS_BYTES + " must be positive: " + maxMemorySizeBytes);
        }
        if (ringBytes < maxMemorySizeBytes) {
            throw new IllegalArgumentException(RING_BYTES + " (" + ringBytes + ") must be at least "
                    + MMS_BYTES + " (" + maxMemorySizeBytes + ")");
        }
        if (waitTimeLimitNanos < 0) {
            throw new IllegalArgumentException(WTL_MS + " must not be negative");
        }
        if (progressSpins < 0) {
            throw new IllegalArgumentException(PROGRESS_SPINS + " must not be negative: " + progressSpins);
        }
        if (progressYields < 0) {
            throw new IllegalArgumentException(PROGRESS_YIELDS + " must not be negative: " + progressYields);
        }
        if (inlineBytes < 0 || inlineBytes > WhaleConfig.Defaults.RDMA_INLINE_BYTES) {
            throw new IllegalArgumentException(INLINE_BYTES + " must be 0 to " + WhaleConfig.Defaults.RDMA_INLINE_BYTES
                    + ": " + inlineBytes);
        }
        if (consumedDelayNanos < 0 || consumedDelayNanos > WhaleConfig.Defaults.RDMA_CONSUMED_DELAY_MS_MAX * 1_000_000L) {
            throw new IllegalArgumentException(CONSUMED_DELAY_MS + " must be 0 to " + WhaleConfig.Defaults.RDMA_CONSUMED_DELAY_MS_MAX
                    + ": " + consumedDelayNanos / 1_000_000L);
        }
        if (receiveThreads <= 0) {
            throw new IllegalArgumentException(RECEIVE_THREADS + " must be positive: " + receiveThreads);
        }
        if (bindTimeoutMillis < 0) {
            throw new IllegalArgumentException(BIND_TIMEOUT_MS + " must not be negative: " + bindTimeoutMillis);
        }
        secret = secret.clone();
        ucxSettings = Map.copyOf(ucxSettings);
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }

    public static RdmaConfig defaults(String secret) {
        return fromMap(Map.of(SECRET, secret));
    }

    public static RdmaConfig fromMap(Map<String, ?> conf) {
        Object secret = conf.get(SECRET);
        if (secret == null) {
            throw new IllegalArgumentException(SECRET + " is required: peers authenticate with it");
        }
        return new RdmaConfig(
                // as submit accepts it (WhaleConfigValidation): "UCX" or " ucx " is ucx
                conf.get(PROVIDER) == null ? DEFAULT_PROVIDER : conf.get(PROVIDER).toString().trim().toLowerCase(java.util.Locale.ROOT),
                intValue(conf, MMS_BYTES, DEFAULT_MMS_BYTES),
                (long) (doubleValue(conf, WTL_MS, DEFAULT_WTL_MS) * 1_000_000L),
                intValue(conf, RING_BYTES, DEFAULT_RING_BYTES),
                secret.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                intValue(conf, HANDSHAKE_TIMEOUT_MS, 5_000),
                intValue(conf, RECONNECT_MIN_MS, WhaleConfig.Defaults.RDMA_RECONNECT_MIN_MS),
                intValue(conf, RECONNECT_MAX_MS, WhaleConfig.Defaults.RDMA_RECONNECT_MAX_MS),
                intValue(conf, RECONNECT_MAX_ATTEMPTS, 300),
                intValue(conf, POLL_MAX_PARK_US, 100),
                booleanValue(conf, PROGRESS_WAIT, true),
                intValue(conf, PROGRESS_SPINS, WhaleConfig.Defaults.RDMA_PROGRESS_SPINS),
                intValue(conf, PROGRESS_YIELDS, WhaleConfig.Defaults.RDMA_PROGRESS_YIELDS),
                intValue(conf, INLINE_BYTES, WhaleConfig.Defaults.RDMA_INLINE_BYTES),
                intValue(conf, CONSUMED_DELAY_MS, WhaleConfig.Defaults.RDMA_CONSUMED_DELAY_MS) * 1_000_000L,
                intValue(conf, RECEIVE_THREADS, DEFAULT_RECEIVE_THREADS),
                intValue(conf, BIND_TIMEOUT_MS, DEFAULT_BIND_TIMEOUT_MS),
                ucxSettings(conf));
    }

    private static Map<String, String> ucxSettings(Map<String, ?> conf) {
        Map<String, String> settings = new java.util.TreeMap<>();
        conf.forEach((key, value) -> {
            if (key.startsWith(UCX_PREFIX) && value != null) {
                settings.put(key.substring(UCX_PREFIX.length()), value.toString());
            }
        });
        return settings;
    }

    private static int intValue(Map<String, ?> conf, String key, int fallback) {
        return (int) number(conf, key, fallback, Integer::parseInt);
    }

    /** A boolean, or its string as Storm's command line gives it ({@code -c key=false}). */
    private static boolean booleanValue(Map<String, ?> conf, String key, boolean fallback) {
        Object v = conf.get(key);
        if (v == null) {
            return fallback;
        }
        String text = v.toString().trim();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(key + " must be true or false, not '" + v + "'");
        }
        return Boolean.parseBoolean(text);
    }

    private static double doubleValue(Map<String, ?> conf, String key, double fallback) {
        return number(conf, key, fallback, Double::parseDouble).doubleValue();
    }

    private static Number number(Map<String, ?> conf, String key, Number fallback,
                                 java.util.function.Function<String, Number> parse) {
        Object v = conf.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return parse.apply(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, not '" + v + "'", e);
        }
    }
}
