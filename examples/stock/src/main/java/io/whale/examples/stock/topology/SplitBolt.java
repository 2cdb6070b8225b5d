package io.whale.examples.stock.topology;

import java.util.Map;

import io.whale.examples.report.ProgressStream;
import io.whale.examples.stock.model.StockRecord;
import io.whale.examples.stock.model.TradingRules;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * Parses each record, drops the ones that break the {@link TradingRules} (or do not parse), and sends
 * the rest to the {@code buy} or {@code sell} stream. The records it drops are finished here: it counts them on its
 * {@link ProgressStream} (the matchers count the rest).
 */
public class SplitBolt extends BaseBasicBolt {
    private transient ProgressStream progress;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context) {
        this.progress = new ProgressStream();
    }

    @Override
    public void execute(Tuple tuple, BasicOutputCollector collector) {
        if (TupleUtils.isTick(tuple)) {
            progress.send(collector::emit);
            return;
        }
        StockRecord record;
        try {
            record = StockRecord.parse(tuple.getLongByField(StockTopology.ORDER_ID), tuple.getStringByField("record"));
        } catch (IllegalArgumentException | ArithmeticException e) {
            progress.countPartitioned();
            return;
        }
        if (TradingRules.allows(record)) {
            String stream = record.side() == StockRecord.BUY ? StockTopology.BUY_STREAM : StockTopology.SELL_STREAM;
            collector.emit(stream, StockTopology.orderValues(record, tuple.getLongByField(StockTopology.EMIT_MILLIS)));
        } else {
            progress.countPartitioned();
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(StockTopology.BUY_STREAM, StockTopology.ORDER_FIELDS);
        declarer.declareStream(StockTopology.SELL_STREAM, StockTopology.ORDER_FIELDS);
        ProgressStream.declare(declarer);
    }
}
