package io.whale.examples.ridehailing.topology;

import java.util.List;
import java.util.Map;

import io.whale.examples.kafka.KafkaSpouts;
import io.whale.examples.report.ThroughputLatencyReporter;
import io.whale.examples.ridehailing.model.DriverLocation;
import io.whale.examples.ridehailing.model.Order;
import org.apache.storm.Config;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.ObjectReader;

/**
 * The ride-hailing dispatch topology (SC'21 §5.1):
 * <pre>
 *   drivers --fields(driverId)--> matcher --fields(orderId)--> aggregator --global--> reporter
 *   orders  --all--------------->
 *           --fields(orderId)----------------------------->
 *   clock   --all------------------------------------------>
 * </pre>
 * Orders are broadcast to every matcher task: this all grouping is the one-to-many partitioning Whale speeds up.
 * Only matchers with a driver in the radius answer; each order also goes to its aggregator task, which decides
 * it a bounded wait after it arrived ({@link #DECIDE_WAIT_KEY}), on the first tuple after the wait: the clock's
 * strikes ({@link #DECIDE_CLOCK_KEY}) bound how late that is when orders are few.
 */
public final class RideHailingTopology {
    public static final String DRIVERS = "drivers";
    public static final String ORDERS = "orders";
    public static final String MATCHER = "matcher";
    public static final String AGGREGATOR = "aggregator";
    public static final String CLOCK = "clock";
    public static final String REPORTER = "reporter";

    public static final String DRIVER_ID = "driverId";
    public static final String ORDER_ID = "orderId";
    public static final String DISTANCE = "distanceM";
    public static final String EMIT_MILLIS = "emitMillis";

    public static final Fields DRIVER_FIELDS = new Fields(DRIVER_ID, "tripId", "ts", "lon", "lat");
    public static final Fields ORDER_FIELDS = new Fields(ORDER_ID, "startTs", "endTs", "pickupLon", "pickupLat",
            "dropLon", "dropLat", EMIT_MILLIS);
    /** One matcher's qualified matches for one order: how many of its drivers are in the radius, and the nearest. */
    public static final Fields ANSWER_FIELDS = new Fields(ORDER_ID, EMIT_MILLIS, "candidates", DRIVER_ID, DISTANCE);
    /** The dispatch result; {@code driverId} is empty when no driver is within the radius. */
    public static final Fields RESULT_FIELDS = new Fields(ORDER_ID, DRIVER_ID, DISTANCE, "candidates", EMIT_MILLIS);

    /** Topology conf key: search radius around the pick-up point, in metres. */
    public static final String RADIUS_KEY = "ridehailing.radius.m";
    public static final double DEFAULT_RADIUS_M = 500;
    /** Topology conf key: how long after an order reaches its aggregator it is decided with the answers in hand, in ms. */
    public static final String DECIDE_WAIT_KEY = "ridehailing.decide.wait.ms";
    public static final long DEFAULT_DECIDE_WAIT_MS = 100;
    /**
     * Topology conf key: how often the decision clock strikes at every aggregator, in ms (from 1 to the decision wait;
     * unset: {@link #DEFAULT_DECIDE_CLOCK_MS}, or the wait when that is shorter).
     */
    public static final String DECIDE_CLOCK_KEY = "ridehailing.decide.clock.ms";
    public static final long DEFAULT_DECIDE_CLOCK_MS = 20;

    /** Parallelism of each component (the reporter always has one task). */
    public record Parallelism(int driverSpouts, int orderSpouts, int matchers, int aggregators) {
    }

    private RideHailingTopology() {
    }

    /** The topology wired to the given sources; callers may add bolts (e.g. a result collector on {@link #AGGREGATOR}) before building it. */
    public static TopologyBuilder builder(IRichSpout drivers, IRichSpout orders, Parallelism parallelism, int reportIntervalSeconds) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(DRIVERS, drivers, parallelism.driverSpouts());
        builder.setSpout(ORDERS, orders, parallelism.orderSpouts());
        builder.setBolt(MATCHER, new MatcherBolt(), parallelism.matchers())
                .fieldsGrouping(DRIVERS, new Fields(DRIVER_ID))
                .allGrouping(ORDERS);
        builder.setSpout(CLOCK, new DecisionClockSpout(), 1);
        builder.setBolt(AGGREGATOR, new BestDriverAggregator(), parallelism.aggregators())
                .fieldsGrouping(MATCHER, new Fields(ORDER_ID))
                .fieldsGrouping(ORDERS, new Fields(ORDER_ID))
                .allGrouping(CLOCK);
        builder.setBolt(REPORTER, new ThroughputLatencyReporter("ridehailing", EMIT_MILLIS, reportIntervalSeconds), 1)
                .globalGrouping(AGGREGATOR);
        return builder;
    }

    /** At-least-once Kafka spouts for the two topics, in consumer groups {@code <groupPrefix>-drivers/-orders}. */
    public static IRichSpout driverSpout(String bootstrap, String topic, String groupPrefix) {
        return KafkaSpouts.atLeastOnce(bootstrap, topic, groupPrefix + "-drivers", new DriverRecordTranslator(), DRIVER_FIELDS);
    }

    public static IRichSpout orderSpout(String bootstrap, String topic, String groupPrefix) {
        return KafkaSpouts.atLeastOnce(bootstrap, topic, groupPrefix + "-orders", new OrderRecordTranslator(), ORDER_FIELDS);
    }

    public static List<Object> driverValues(DriverLocation d) {
        return new Values(d.driverId(), d.orderId(), d.unixTs(), d.lon(), d.lat());
    }

    public static List<Object> orderValues(Order o, long emitMillis) {
        return new Values(o.orderId(), o.startTs(), o.endTs(), o.pickupLon(), o.pickupLat(), o.dropLon(), o.dropLat(), emitMillis);
    }

    /**
     * The decision wait of a topology conf, checked: a whole number of milliseconds from 1 to below the message
     * timeout (an order still open when its tuples time out would be replayed, not decided).
     *
     * @throws IllegalArgumentException naming the key and the bound it breaks
     */
    public static long decideWaitMillis(Map<String, Object> conf) {
        Object value = conf.get(DECIDE_WAIT_KEY);
        long wait;
        try {
            wait = value == null ? DEFAULT_DECIDE_WAIT_MS : ObjectReader.getInt(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(DECIDE_WAIT_KEY + " must be a whole number of milliseconds, not " + value, e);
        }
        long timeoutMillis = messageTimeoutMillis(conf);
        if (wait < 1 || wait >= timeoutMillis) {
            throw new IllegalArgumentException(DECIDE_WAIT_KEY + " must be from 1 ms to below " + Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS
                + " (" + timeoutMillis + " ms), not " + wait);
        }
        return wait;
    }

    /**
     * The decision clock's period of a topology conf, checked: a whole number of milliseconds from 1 to the decision
     * wait (a decision is late by up to one period).
     *
     * @throws IllegalArgumentException naming the key and the bound it breaks
     */
    public static long decideClockMillis(Map<String, Object> conf) {
        long wait = decideWaitMillis(conf);
        Object value = conf.get(DECIDE_CLOCK_KEY);
        long period;
        try {
            period = value == null ? Math.min(DEFAULT_DECIDE_CLOCK_MS, wait) : ObjectReader.getInt(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(DECIDE_CLOCK_KEY + " must be a whole number of milliseconds, not " + value, e);
        }
        if (period < 1 || period > wait) {
            throw new IllegalArgumentException(DECIDE_CLOCK_KEY + " must be from 1 ms to " + DECIDE_WAIT_KEY + " (" + wait
                + " ms), not " + period);
        }
        return period;
    }

    /** {@code topology.message.timeout.secs} in milliseconds, Storm's default (30 s) when unset. */
    static long messageTimeoutMillis(Map<String, Object> conf) {
        return 1000L * ObjectReader.getInt(conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30);
    }

    static double radiusMetres(Map<String, Object> conf) {
        Object value = conf.get(RADIUS_KEY);
        return value == null ? DEFAULT_RADIUS_M : ObjectReader.getDouble(value);
    }
}
