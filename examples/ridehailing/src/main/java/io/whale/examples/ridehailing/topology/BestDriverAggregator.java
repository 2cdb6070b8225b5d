package io.whale.examples.ridehailing.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import io.whale.examples.ridehailing.model.Match;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.TupleUtils;

/**
 * Collects the answers of all matcher tasks for an order (fields grouping on order id) and, once the
 * last one is in, emits the best driver over all of them, anchored to every answer, then acks them.
 *
 * <p>Answers are held by matcher task, so a duplicate from a replay does not count twice. An order
 * still incomplete after the topology's message timeout is given up: its held answers are failed so
 * the spout replays the order.
 */
public class BestDriverAggregator extends BaseRichBolt {
    private transient OutputCollector collector;
    private transient int matcherTasks;
    private transient long timeoutMillis;
    private transient Map<String, PendingOrder> pending;

    private static final class PendingOrder {
        final long firstSeenMillis;
        final Map<Integer, Tuple> answersByTask = new HashMap<>();

        PendingOrder(long firstSeenMillis) {
            this.firstSeenMillis = firstSeenMillis;
        }
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.matcherTasks = context.getComponentTasks(RideHailingTopology.MATCHER).size();
        this.timeoutMillis = 1000L * ObjectReader.getInt(conf.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS), 30);
        this.pending = new HashMap<>();
    }

    @Override
    public void execute(Tuple tuple) {
        if (TupleUtils.isTick(tuple)) {
            expire(System.currentTimeMillis());
            return;
        }
        String orderId = tuple.getStringByField(RideHailingTopology.ORDER_ID);
        PendingOrder order = pending.computeIfAbsent(orderId, id -> new PendingOrder(System.currentTimeMillis()));
        if (order.answersByTask.putIfAbsent(tuple.getSourceTask(), tuple) != null) {
            collector.ack(tuple);
            return;
        }
        if (order.answersByTask.size() == matcherTasks) {
            pending.remove(orderId);
            emitBest(orderId, order);
        }
    }

    private void emitBest(String orderId, PendingOrder order) {
        String best = Match.NO_DRIVER;
        double bestDistance = Double.POSITIVE_INFINITY;
        int candidates = 0;
        long emitMillis = Long.MAX_VALUE;
        List<Tuple> answers = new ArrayList<>(order.answersByTask.values());
        for (Tuple answer : answers) {
            candidates += answer.getIntegerByField("candidates");
            emitMillis = Math.min(emitMillis, answer.getLongByField(RideHailingTopology.EMIT_MILLIS));
            String driver = answer.getStringByField(RideHailingTopology.DRIVER_ID);
            double distance = answer.getDoubleByField(RideHailingTopology.DISTANCE);
            if (Match.better(distance, driver, bestDistance, best)) {
                best = driver;
                bestDistance = distance;
            }
        }
        collector.emit(answers, new Values(orderId, best, bestDistance, candidates, emitMillis));
        answers.forEach(collector::ack);
    }

    private void expire(long now) {
        for (Iterator<PendingOrder> it = pending.values().iterator(); it.hasNext(); ) {
            PendingOrder order = it.next();
            if (now - order.firstSeenMillis > timeoutMillis) {
                order.answersByTask.values().forEach(collector::fail);
                it.remove();
            }
        }
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 5);
        return conf;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(RideHailingTopology.RESULT_FIELDS);
    }
}
