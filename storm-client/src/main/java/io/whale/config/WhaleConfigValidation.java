package io.whale.config;

import static io.whale.config.WhaleConfig.MULTICAST_FORCED_SWITCH_MS;
import static io.whale.config.WhaleConfig.MULTICAST_MAX_OUTDEGREE;
import static io.whale.config.WhaleConfig.MULTICAST_MONITOR_INTERVAL_MS;
import static io.whale.config.WhaleConfig.MULTICAST_QUEUE_CAPACITY;
import static io.whale.config.WhaleConfig.MULTICAST_RATE_ALPHA;
import static io.whale.config.WhaleConfig.MULTICAST_STRUCTURE;
import static io.whale.config.WhaleConfig.MULTICAST_T_DOWN;
import static io.whale.config.WhaleConfig.MULTICAST_T_UP;
import static io.whale.config.WhaleConfig.MULTICAST_WATERLINE;
import static io.whale.config.WhaleConfig.NETTY_MESSAGE_MAX_BYTES;
import static io.whale.config.WhaleConfig.NETTY_TLS_HOSTNAME_VERIFICATION;
import static io.whale.config.WhaleConfig.RDMA_BIND_HOST;
import static io.whale.config.WhaleConfig.RDMA_BIND_TIMEOUT_MS;
import static io.whale.config.WhaleConfig.RDMA_CONSUMED_DELAY_MS;
import static io.whale.config.WhaleConfig.RDMA_HANDSHAKE_TIMEOUT_MS;
import static io.whale.config.WhaleConfig.RDMA_INLINE_BYTES;
import static io.whale.config.WhaleConfig.RDMA_MMS_BYTES;
import static io.whale.config.WhaleConfig.RDMA_POLL_MAX_PARK_US;
import static io.whale.config.WhaleConfig.RDMA_PROGRESS_SPINS;
import static io.whale.config.WhaleConfig.RDMA_PROGRESS_WAIT;
import static io.whale.config.WhaleConfig.RDMA_PROGRESS_YIELDS;
import static io.whale.config.WhaleConfig.RDMA_PROVIDER;
import static io.whale.config.WhaleConfig.RDMA_RECEIVE_THREADS;
import static io.whale.config.WhaleConfig.RDMA_RECONNECT_MAX_ATTEMPTS;
import static io.whale.config.WhaleConfig.RDMA_RECONNECT_MAX_MS;
import static io.whale.config.WhaleConfig.RDMA_RECONNECT_MIN_MS;
import static io.whale.config.WhaleConfig.RDMA_RING_BYTES;
import static io.whale.config.WhaleConfig.RDMA_SECRET;
import static io.whale.config.WhaleConfig.RDMA_SEND_TIMEOUT_MS;
import static io.whale.config.WhaleConfig.RDMA_WTL_MS;
import static io.whale.config.WhaleConfig.TRANSPORT;
import static io.whale.config.WhaleConfig.WOC_ACK_COMBINE;
import static io.whale.config.WhaleConfig.WOC_ACK_COMBINE_DELAY_MS;
import static io.whale.config.WhaleConfig.WOC_ACK_COMBINE_WAIT_MS;
import static io.whale.config.WhaleConfig.WOC_ENABLED;
import static io.whale.config.WhaleConfig.WOC_STALL_BUFFER_BYTES;
import static io.whale.config.WhaleConfig.WOC_STALL_MS;
import static io.whale.config.WhaleConfig.WOC_WINDOW_DELAY_MS;
import static io.whale.config.WhaleConfig.WOC_WINDOW_TUPLES;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.storm.Config;
import org.apache.storm.shade.org.apache.commons.lang.StringUtils;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;
import org.apache.storm.validation.ConfigValidation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each {@link WhaleConfig} key accepts, and the submit-time check. Values are taken as Storm takes its own:
 * typed as YAML or JSON give them ({@code -c whale.woc.enabled=true} is a boolean, {@code "true"} a string),
 * with no coercion from strings, so what passes here is exactly what the workers can read.
 */
public final class WhaleConfigValidation {
    private static final Logger LOG = LoggerFactory.getLogger(WhaleConfigValidation.class);
    /** Sections where every key is one of {@link WhaleConfig}'s: any other key there is a typo. */
    private static final List<String> SECTIONS = List.of("whale.woc.", "whale.rdma.", "whale.multicast.", "whale.netty.");
    /** Keys Whale no longer reads, and what does their work now; a topology that sets one is warned, not refused. */
    private static final Map<String, String> RETIRED = Map.of("whale.bolt.wait",
        "Storm's own topology.bolt.wait.progressive.level2.count does its work: 0 is what sleep was (conf/storm.yaml"
            + " ships it), Storm's default 1000 what storm was");
    /** Whale's bolt wait ({@code topology.bolt.wait.strategy}), by name: the keys know no class of the core. */
    public static final String PUBLISH_WAIT = "io.whale.executor.PublishWait";
    /** UCX's own settings, passed through to the transport as they are ({@code whale.rdma.ucx.TLS}). */
    private static final String UCX_PASS_THROUGH = "whale.rdma.ucx.";
    /** Whale's Prometheus reporter, as an entry of {@code topology.metrics.reporters} names its class. */
    public static final String PROMETHEUS_REPORTER = "io.whale.metrics.prometheus.PrometheusReporter";
    /** Outside the sections, a key at most this many one-character edits from a Whale key is taken for a typo of it. */
    private static final int TYPO_DISTANCE = 3;
    private static final Map<String, Rule> RULES = Map.ofEntries(
        Map.entry(WOC_ENABLED, Rule.BOOLEAN),
        Map.entry(WOC_WINDOW_TUPLES, Rule.NON_NEGATIVE_INT),
        Map.entry(WOC_WINDOW_DELAY_MS, Rule.NON_NEGATIVE_INT),
        Map.entry(WOC_STALL_MS, Rule.NON_NEGATIVE_INT),
        Map.entry(WOC_STALL_BUFFER_BYTES, Rule.NON_NEGATIVE_INT),
        Map.entry(WOC_ACK_COMBINE, Rule.BOOLEAN),
        Map.entry(WOC_ACK_COMBINE_DELAY_MS, Rule.intRange(1, 1000)),
        Map.entry(WOC_ACK_COMBINE_WAIT_MS, Rule.intRange(0, 60_000)),
        Map.entry(TRANSPORT, Rule.oneOf("netty", "rdma")),
        Map.entry(NETTY_MESSAGE_MAX_BYTES, Rule.intRange(1 << 20, Integer.MAX_VALUE)),
        Map.entry(NETTY_TLS_HOSTNAME_VERIFICATION, Rule.BOOLEAN),
        Map.entry(MULTICAST_STRUCTURE, Rule.oneOf("sequential", "binomial", "nonblocking")),
        Map.entry(MULTICAST_MAX_OUTDEGREE, Rule.POSITIVE_INT_OR_AUTO),
        Map.entry(MULTICAST_QUEUE_CAPACITY, Rule.POSITIVE_INT),
        Map.entry(MULTICAST_WATERLINE, Rule.POSITIVE_INT),
        Map.entry(MULTICAST_T_UP, Rule.FRACTION),
        Map.entry(MULTICAST_T_DOWN, Rule.POSITIVE_NUMBER),
        Map.entry(MULTICAST_MONITOR_INTERVAL_MS, Rule.POSITIVE_INT),
        Map.entry(MULTICAST_RATE_ALPHA, Rule.SMOOTHING),
        Map.entry(MULTICAST_FORCED_SWITCH_MS, Rule.NON_NEGATIVE_INT),
        Map.entry(RDMA_PROVIDER, Rule.oneOf("ucx", "disni")),
        Map.entry(RDMA_MMS_BYTES, Rule.POSITIVE_INT),
        Map.entry(RDMA_WTL_MS, Rule.NON_NEGATIVE_NUMBER),
        Map.entry(RDMA_RING_BYTES, Rule.POSITIVE_INT),
        Map.entry(RDMA_SECRET, Rule.NON_EMPTY_STRING),
        Map.entry(RDMA_HANDSHAKE_TIMEOUT_MS, Rule.POSITIVE_INT),
        Map.entry(RDMA_RECONNECT_MIN_MS, Rule.POSITIVE_INT),
        Map.entry(RDMA_RECONNECT_MAX_MS, Rule.POSITIVE_INT),
        Map.entry(RDMA_RECONNECT_MAX_ATTEMPTS, Rule.POSITIVE_INT),
        Map.entry(RDMA_POLL_MAX_PARK_US, Rule.NON_NEGATIVE_INT),
        Map.entry(RDMA_PROGRESS_WAIT, Rule.BOOLEAN),
        Map.entry(RDMA_PROGRESS_SPINS, Rule.NON_NEGATIVE_INT),
        Map.entry(RDMA_PROGRESS_YIELDS, Rule.NON_NEGATIVE_INT),
        Map.entry(RDMA_INLINE_BYTES, Rule.intRange(0, WhaleConfig.Defaults.RDMA_INLINE_BYTES)),
        Map.entry(RDMA_CONSUMED_DELAY_MS, Rule.intRange(0, WhaleConfig.Defaults.RDMA_CONSUMED_DELAY_MS_MAX)),
        Map.entry(RDMA_BIND_HOST, Rule.NON_EMPTY_STRING),
        Map.entry(RDMA_SEND_TIMEOUT_MS, Rule.POSITIVE_INT),
        Map.entry(RDMA_RECEIVE_THREADS, Rule.POSITIVE_INT),
        Map.entry(RDMA_BIND_TIMEOUT_MS, Rule.NON_NEGATIVE_INT));

    /**
     * Pairs (smaller, larger) whose values must be in that order: each set value is checked against the other's value,
     * or its default when it has one and is unset (a work request above the default ring alone would crash every
     * worker); the waterline has none to check against, the workers cap it at the queue's capacity.
     */
    private static final List<Ordered> ORDERED = List.of(
        new Ordered(RDMA_MMS_BYTES, WhaleConfig.Defaults.RDMA_MMS_BYTES, RDMA_RING_BYTES, WhaleConfig.Defaults.RDMA_RING_BYTES),
        new Ordered(MULTICAST_WATERLINE, null, MULTICAST_QUEUE_CAPACITY, null),
        new Ordered(RDMA_RECONNECT_MIN_MS, WhaleConfig.Defaults.RDMA_RECONNECT_MIN_MS, RDMA_RECONNECT_MAX_MS,
            WhaleConfig.Defaults.RDMA_RECONNECT_MAX_MS));

    private record Ordered(String small, Integer smallDefault, String large, Integer largeDefault) {
        /** The message for {@code topoConf}'s values out of order; null when they are in order or one is missing. */
        String violation(Map<String, Object> topoConf) {
            Object smallSet = topoConf.get(small);
            Object largeSet = topoConf.get(large);
            if (smallSet == null && largeSet == null) {
                return null;
            }
            Number smallValue = smallSet instanceof Number n ? n : smallSet == null ? smallDefault : null;
            Number largeValue = largeSet instanceof Number n ? n : largeSet == null ? largeDefault : null;
            if (smallValue == null || largeValue == null || largeValue.doubleValue() >= smallValue.doubleValue()) {
                return null;
            }
            return large + " (" + largeValue + (largeSet == null ? ", its default" : "") + ") must be at least " + small
                + " (" + smallValue + (smallSet == null ? ", its default" : "") + ")";
        }
    }

    private WhaleConfigValidation() {
    }

    /**
     * Checks every {@code whale.*} key of a topology conf (Storm's own keys are checked before this, by the
     * patched {@code ConfigValidation.validateTopoConf}).
     *
     * @throws IllegalArgumentException naming the first bad key, its value and what the key accepts
     */
    public static void validateTopoConf(Map<String, Object> topoConf) {
        unknownKeys(topoConf).forEach(LOG::warn);
        ConfigValidation.validateFields(topoConf, List.of(WhaleConfig.class));
        for (Ordered pair : ORDERED) {
            String violation = pair.violation(topoConf);
            if (violation != null) {
                throw new IllegalArgumentException(violation);
            }
        }
        for (String key : List.of(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY, Config.TOPOLOGY_BACKPRESSURE_WAIT_STRATEGY)) {
            if (PUBLISH_WAIT.equals(topoConf.get(key))) {
                throw new IllegalArgumentException(misplacedPublishWait(key));
            }
        }
        checkPrometheusPorts(topoConf);
        checkTransportSecurity(topoConf, Utils.readStormConfig());
    }

    /**
     * Refuses the RDMA transport where Storm's worker security is on, in the cluster's conf ({@code storm.yaml} as the
     * submitting client and Nimbus read it) or the topology's: {@code whale.transport: rdma} carries tuples between
     * workers without Netty's TLS ({@code storm.messaging.netty.tls.enable}) or SASL
     * ({@code storm.messaging.netty.authentication}), so the switch would silently drop them (issue 34).
     */
    static void checkTransportSecurity(Map<String, Object> topoConf, Map<String, Object> clusterConf) {
        Map<String, Object> effective = new HashMap<>(clusterConf);
        effective.putAll(topoConf);
        if (!TransportSelection.RDMA_CONTEXT.equals(TransportSelection.pluginClassName(effective))) {
            return;
        }
        List<String> required = new ArrayList<>();
        for (String key : List.of(Config.STORM_MESSAGING_NETTY_TLS_ENABLE, Config.STORM_MESSAGING_NETTY_AUTHENTICATION)) {
            if (ObjectReader.getBoolean(effective.get(key), false)) {
                required.add(key + ": true" + (topoConf.containsKey(key) ? " (the topology's)" : " (the cluster's)"));
            }
        }
        if (!required.isEmpty()) {
            throw new IllegalArgumentException(WhaleConfig.TRANSPORT + ": rdma carries tuples without Netty's TLS and SASL, "
                + "and " + String.join(" and ", required) + " asks for them; run this topology over Netty (leave "
                + WhaleConfig.TRANSPORT + " unset or set it to netty), or set them to false in its conf knowingly");
        }
    }

    /** Why {@link #PUBLISH_WAIT} cannot be {@code key}'s wait (a spout's, backpressure's): it watches a bolt's queue. */
    public static String misplacedPublishWait(String key) {
        return key + ": " + PUBLISH_WAIT + " waits for tuples published to a bolt's queue and is for "
            + Config.TOPOLOGY_BOLT_WAIT_STRATEGY + " only";
    }

    /** The port of each Whale Prometheus reporter the topology names, parsed as the reporter will (else every worker would fail). */
    private static void checkPrometheusPorts(Map<String, Object> topoConf) {
        if (!(topoConf.get(Config.TOPOLOGY_METRICS_REPORTERS) instanceof List<?> reporters)) {
            return;
        }
        for (Object entry : reporters) {
            if (entry instanceof Map<?, ?> reporter && PROMETHEUS_REPORTER.equals(reporter.get("class"))) {
                Object port = reporter.get(PortRange.KEY);
                try {
                    PortRange.parse(port == null ? null : port.toString());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(Config.TOPOLOGY_METRICS_REPORTERS + ": " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * A warning for each key of {@code topoConf} that looks like a Whale key but is none (Whale ignores it): a key in
     * one of Whale's sections, or within {@value #TYPO_DISTANCE} edits of a Whale key; each names the closest Whale
     * key. A retired key's warning says what does its work now. Other {@code whale.*} keys (an application's own, UCX's pass-through) are left alone.
     */
    static List<String> unknownKeys(Map<String, Object> topoConf) {
        List<String> warnings = new ArrayList<>();
        for (String key : topoConf.keySet()) {
            if (RETIRED.containsKey(key)) {
                warnings.add(key + " is no longer read and is ignored; " + RETIRED.get(key));
                continue;
            }
            if (!key.startsWith("whale.") || RULES.containsKey(key) || key.startsWith(UCX_PASS_THROUGH)) {
                continue;
            }
            String closest = RULES.keySet().stream()
                .min(Comparator.comparingInt((String known) -> StringUtils.getLevenshteinDistance(key, known))
                    .thenComparing(Comparator.naturalOrder()))
                .orElseThrow();
            boolean inSection = SECTIONS.stream().anyMatch(key::startsWith);
            if (inSection || StringUtils.getLevenshteinDistance(key, closest) <= TYPO_DISTANCE) {
                warnings.add(key + " is not a Whale key and is ignored; the closest Whale key is " + closest);
            }
        }
        return warnings;
    }

    /** Checks one key's value; null (the key set to nothing) reads as unset. */
    public static void check(String key, Object value) {
        Rule rule = RULES.get(key);
        if (rule == null) {
            throw new IllegalStateException("no validation rule for " + key);
        }
        if (value != null && !rule.accepts.test(value)) {
            throw new IllegalArgumentException(key + ": " + describe(value) + " is not accepted; expected "
                + rule.expected);
        }
    }

    /** {@code key}'s whole number in {@code topoConf}, checked ({@link #check}), or {@code unset} if it is not set. */
    public static int intOr(Map<String, Object> topoConf, String key, int unset) {
        Object value = topoConf.get(key);
        check(key, value);
        return value == null ? unset : ObjectReader.getInt(value);
    }

    private static String describe(Object value) {
        return value instanceof String s ? "\"" + s + "\" (a string)" : value + " (" + value.getClass().getSimpleName() + ")";
    }

    /** Storm's validator hook: Storm passes the field's name, which {@link WhaleConfig} maps to its key. */
    public static final class KeyValidator extends ConfigValidation.Validator {
        @Override
        public void validateField(String fieldName, Object value) {
            try {
                check((String) WhaleConfig.class.getField(fieldName).get(null), value);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("WhaleConfig has no key field " + fieldName, e);
            }
        }
    }

    private record Rule(String expected, Predicate<Object> accepts) {
        static final Rule BOOLEAN = new Rule("a boolean: true or false (unquoted in YAML)", Boolean.class::isInstance);
        static final Rule POSITIVE_INT = new Rule("a whole number from 1 to " + Integer.MAX_VALUE,
            v -> isWholeNumber(v) && ((Number) v).longValue() >= 1 && ((Number) v).longValue() <= Integer.MAX_VALUE);
        static final Rule NON_NEGATIVE_INT = new Rule("a whole number from 0 to " + Integer.MAX_VALUE,
            v -> isWholeNumber(v) && ((Number) v).longValue() >= 0 && ((Number) v).longValue() <= Integer.MAX_VALUE);
        static final Rule NON_NEGATIVE_NUMBER = new Rule("a number, 0 or more",
            v -> v instanceof Number n && n.doubleValue() >= 0 && Double.isFinite(n.doubleValue()));
        static final Rule POSITIVE_NUMBER = new Rule("a number above 0",
            v -> v instanceof Number n && n.doubleValue() > 0 && Double.isFinite(n.doubleValue()));
        static final Rule FRACTION = new Rule("a number above 0 and at most 1",
            v -> v instanceof Number n && n.doubleValue() > 0 && n.doubleValue() <= 1);
        /** The weight of the past in exponential smoothing, as the model's monitors take it: 1 would never move. */
        static final Rule SMOOTHING = new Rule("a number from 0, below 1",
            v -> v instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() < 1);
        static final Rule POSITIVE_INT_OR_AUTO = new Rule("auto, or " + POSITIVE_INT.expected,
            v -> "auto".equals(v) || POSITIVE_INT.accepts.test(v));
        static final Rule NON_EMPTY_STRING = new Rule("a non-empty string", v -> v instanceof String s && !s.isBlank());

        static Rule intRange(long min, long max) {
            return new Rule("a whole number from " + min + " to " + max,
                v -> isWholeNumber(v) && ((Number) v).longValue() >= min && ((Number) v).longValue() <= max);
        }

        static Rule oneOf(String... choices) {
            List<String> accepted = List.of(choices);
            return new Rule("one of " + String.join(", ", accepted), v -> v instanceof String s
                && accepted.contains(s.trim().toLowerCase(Locale.ROOT)));
        }

        private static boolean isWholeNumber(Object v) {
            return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
        }
    }
}
