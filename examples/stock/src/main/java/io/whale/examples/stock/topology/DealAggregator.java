package io.whale.examples.stock.topology;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.whale.examples.stock.model.Deal;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Settles deals (fields grouping on symbol): each (buy, sell) pair is settled once even when replays
 * deliver it again, its volume is added to the symbol's tumbling window, and the settled deal (default
 * stream) and the window's running trading volume ({@code volume} stream) are emitted.
 */
public class DealAggregator extends BaseRichBolt {
    private transient OutputCollector collector;
    private transient WindowedBooks<WindowTotals> totals;

    private static final class WindowTotals {
        final Set<DealKey> settled = new HashSet<>();
        long volume;
    }

    private record DealKey(long buyId, long sellId) {
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.totals = new WindowedBooks<>(StockTopology.windowMillis(conf), StockTopology.latenessMillis(conf), WindowTotals::new);
    }

    @Override
    public void execute(Tuple tuple) {
        Deal deal = StockTopology.dealOf(tuple);
        WindowTotals window = totals.book(deal.windowStart(), deal.symbol());
        if (window.settled.add(new DealKey(deal.buyId(), deal.sellId()))) {
            window.volume += deal.volume();
            collector.emit(tuple, tuple.getValues());
            collector.emit(StockTopology.VOLUME_STREAM, tuple,
                    new Values(deal.symbol(), deal.windowStart(), window.volume, window.settled.size()));
        }
        totals.advance(deal.windowStart());
        collector.ack(tuple);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(StockTopology.DEAL_FIELDS);
        declarer.declareStream(StockTopology.VOLUME_STREAM, StockTopology.VOLUME_FIELDS);
    }
}
