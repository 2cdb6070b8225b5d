package io.whale.examples.stock.topology;

import java.util.HashMap;
import java.util.Map;

import io.whale.examples.report.ProgressStream;
import io.whale.examples.stock.model.Deal;
import io.whale.examples.stock.model.StockRecord;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;

/**
 * A symmetric windowed join of buys and sells. Buys are partitioned over the matcher tasks by order
 * id (so a symbol's book spreads over all of them), sells are broadcast to every task. Each task
 * keeps its own buys and all sells per (window, symbol); whichever side of a pair arrives second finds
 * the first, so every crossing (buy, sell) pair is found exactly once, by the task owning the buy,
 * whatever the arrival order. Orders are kept by id, so a replayed order replaces itself. Each task counts the buys
 * and the sells it finished on its {@link ProgressStream}.
 */
public class MatcherBolt extends BaseRichBolt {
    private transient OutputCollector collector;
    private transient long windowMillis;
    private transient WindowedBooks<Book> books;
    private transient ProgressStream progress;

    private static final class Book {
        final Map<Long, StockRecord> buys = new HashMap<>();
        final Map<Long, StockRecord> sells = new HashMap<>();
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.windowMillis = StockTopology.windowMillis(conf);
        this.books = new WindowedBooks<>(windowMillis, StockTopology.latenessMillis(conf), Book::new);
        this.progress = new ProgressStream();
    }

    @Override
    public void execute(Tuple tuple) {
        if (TupleUtils.isTick(tuple)) {
            progress.send(collector::emit);
            return;
        }
        StockRecord order = StockTopology.orderOf(tuple);
        long window = Deal.windowStart(order.tsMillis(), windowMillis);
        Book book = books.book(window, order.symbol());
        long emitMillis = tuple.getLongByField(StockTopology.EMIT_MILLIS);
        if (order.side() == StockRecord.BUY) {
            book.buys.put(order.orderId(), order);
            for (StockRecord sell : book.sells.values()) {
                emit(tuple, Deal.of(order, sell, window), emitMillis);
            }
            progress.countPartitioned();
        } else {
            book.sells.put(order.orderId(), order);
            for (StockRecord buy : book.buys.values()) {
                emit(tuple, Deal.of(buy, order, window), emitMillis);
            }
            progress.countBroadcast();
        }
        books.advance(order.tsMillis());
        collector.ack(tuple);
    }

    private void emit(Tuple anchor, Deal deal, long emitMillis) {
        if (deal != null) {
            collector.emit(anchor, StockTopology.dealValues(deal, emitMillis));
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(StockTopology.DEAL_FIELDS);
        ProgressStream.declare(declarer);
    }
}
