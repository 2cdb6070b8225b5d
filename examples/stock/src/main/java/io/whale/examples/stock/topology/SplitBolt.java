package io.whale.examples.stock.topology;

import io.whale.examples.stock.model.StockRecord;
import io.whale.examples.stock.model.TradingRules;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;

/**
 * Parses each record, drops the ones that break the {@link TradingRules} (or do not parse), and sends
 * the rest to the {@code buy} or {@code sell} stream.
 */
public class SplitBolt extends BaseBasicBolt {
    @Override
    public void execute(Tuple tuple, BasicOutputCollector collector) {
        StockRecord record;
        try {
            record = StockRecord.parse(tuple.getLongByField(StockTopology.ORDER_ID), tuple.getStringByField("record"));
        } catch (IllegalArgumentException | ArithmeticException e) {
            return;
        }
        if (TradingRules.allows(record)) {
            String stream = record.side() == StockRecord.BUY ? StockTopology.BUY_STREAM : StockTopology.SELL_STREAM;
            collector.emit(stream, StockTopology.orderValues(record, tuple.getLongByField(StockTopology.EMIT_MILLIS)));
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declareStream(StockTopology.BUY_STREAM, StockTopology.ORDER_FIELDS);
        declarer.declareStream(StockTopology.SELL_STREAM, StockTopology.ORDER_FIELDS);
    }
}
