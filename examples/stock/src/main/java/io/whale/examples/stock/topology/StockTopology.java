package io.whale.examples.stock.topology;

import java.util.List;
import java.util.Map;

import io.whale.examples.kafka.KafkaSpouts;
import io.whale.examples.report.ProgressStream;
import io.whale.examples.report.ThroughputLatencyReporter;
import io.whale.examples.stock.model.Deal;
import io.whale.examples.stock.model.StockRecord;
import org.apache.storm.Config;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.ObjectReader;

/**
 * The stock exchange topology (SC'21 §5.1):
 * <pre>
 *   orders --shuffle--> split --buy: fields(orderId)--> matcher --fields(symbol)--> aggregator --global--> reporter
 *                             --sell: all------------>
 * </pre>
 * Sells are broadcast to every matcher task: this all grouping is the one-to-many partitioning Whale speeds up. A deal
 * is not one per record, so split and matcher also send the reporter how many records they finished, once a report
 * interval ({@link ProgressStream}).
 */
public final class StockTopology {
    public static final String SOURCE = "orders";
    public static final String SPLIT = "split";
    public static final String MATCHER = "matcher";
    public static final String AGGREGATOR = "aggregator";
    public static final String REPORTER = "reporter";

    public static final String BUY_STREAM = "buy";
    public static final String SELL_STREAM = "sell";
    /** Running trading volume of a symbol's window, one tuple per settled deal. */
    public static final String VOLUME_STREAM = "volume";

    public static final String ORDER_ID = "orderId";
    public static final String SYMBOL = "symbol";
    public static final String EMIT_MILLIS = "emitMillis";

    public static final Fields SOURCE_FIELDS = new Fields(ORDER_ID, "record", EMIT_MILLIS);
    public static final Fields ORDER_FIELDS = new Fields(ORDER_ID, SYMBOL, "side", "priceCents", "volume", "ts", EMIT_MILLIS);
    public static final Fields DEAL_FIELDS = new Fields(SYMBOL, "buyId", "sellId", "windowStart", "priceCents", "volume", EMIT_MILLIS);
    public static final Fields VOLUME_FIELDS = new Fields(SYMBOL, "windowStart", "volume", "deals");

    /** Topology conf key: length of the tumbling matching and volume windows, in ms of event time. */
    public static final String WINDOW_KEY = "stock.window.ms";
    public static final long DEFAULT_WINDOW_MS = 500;
    /** Topology conf key: how long after its end (in event time) a window's state is kept for late records. */
    public static final String LATENESS_KEY = "stock.lateness.ms";
    public static final long DEFAULT_LATENESS_MS = 10_000;

    /** Parallelism of each component (the reporter always has one task). */
    public record Parallelism(int spouts, int splitters, int matchers, int aggregators) {
    }

    private StockTopology() {
    }

    /** The topology wired to the given source; callers may add bolts (e.g. result collectors on {@link #AGGREGATOR}) before building it. */
    public static TopologyBuilder builder(IRichSpout source, Parallelism parallelism, int reportIntervalSeconds) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(SOURCE, source, parallelism.spouts());
        builder.setBolt(SPLIT, new SplitBolt(), parallelism.splitters()).shuffleGrouping(SOURCE)
                .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, reportIntervalSeconds);
        builder.setBolt(MATCHER, new MatcherBolt(), parallelism.matchers())
                .fieldsGrouping(SPLIT, BUY_STREAM, new Fields(ORDER_ID))
                .allGrouping(SPLIT, SELL_STREAM)
                .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, reportIntervalSeconds);
        builder.setBolt(AGGREGATOR, new DealAggregator(), parallelism.aggregators())
                .fieldsGrouping(MATCHER, new Fields(SYMBOL));
        builder.setBolt(REPORTER, new ThroughputLatencyReporter("stock", EMIT_MILLIS, reportIntervalSeconds), 1)
                .globalGrouping(AGGREGATOR)
                .globalGrouping(SPLIT, ProgressStream.ID)
                .globalGrouping(MATCHER, ProgressStream.ID);
        return builder;
    }

    /** At-least-once Kafka spout over the order topic, in consumer group {@code groupId}. */
    public static IRichSpout kafkaSource(String bootstrap, String topic, String groupId) {
        return KafkaSpouts.atLeastOnce(bootstrap, topic, groupId, new StockRecordTranslator(), SOURCE_FIELDS);
    }

    static List<Object> orderValues(StockRecord r, long emitMillis) {
        return new Values(r.orderId(), r.symbol(), String.valueOf(r.side()), r.priceCents(), r.volume(), r.tsMillis(), emitMillis);
    }

    static StockRecord orderOf(Tuple t) {
        return new StockRecord(t.getLongByField(ORDER_ID), t.getStringByField(SYMBOL), t.getStringByField("side").charAt(0),
                t.getLongByField("priceCents"), t.getLongByField("volume"), t.getLongByField("ts"));
    }

    static List<Object> dealValues(Deal d, long emitMillis) {
        return new Values(d.symbol(), d.buyId(), d.sellId(), d.windowStart(), d.priceCents(), d.volume(), emitMillis);
    }

    public static Deal dealOf(Tuple t) {
        return new Deal(t.getLongByField("buyId"), t.getLongByField("sellId"), t.getStringByField(SYMBOL),
                t.getLongByField("windowStart"), t.getLongByField("priceCents"), t.getLongByField("volume"));
    }

    static long windowMillis(Map<String, Object> conf) {
        return conf.get(WINDOW_KEY) == null ? DEFAULT_WINDOW_MS : ObjectReader.getInt(conf.get(WINDOW_KEY));
    }

    static long latenessMillis(Map<String, Object> conf) {
        return conf.get(LATENESS_KEY) == null ? DEFAULT_LATENESS_MS : ObjectReader.getInt(conf.get(LATENESS_KEY));
    }
}
