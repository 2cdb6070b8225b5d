package io.whale.examples.ridehailing.topology;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.codahale.metrics.Counter;
import io.whale.examples.ridehailing.model.Match;
import io.whale.examples.ridehailing.topology.DispatchWindows.Answer;
import io.whale.examples.ridehailing.topology.DispatchWindows.Decision;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.TupleUtils;

/**
 * Decides each order (fields grouping on order id, from the order source and from the matchers) a fixed
 * wait after it arrives ({@value RideHailingTopology#DECIDE_WAIT_KEY}): the best driver among the
 * answers in hand, or none, anchored to the order and every answer, which are then acked
 * ({@link DispatchWindows} holds the rules). Decisions due are made on every tuple, the decision clock's strikes
 * included ({@value RideHailingTopology#DECIDE_CLOCK_KEY}), so an order waits at most a clock period longer than the
 * wait however few orders come; a one-second tick fails the orders left open past the message timeout.
 *
 * <p>Counted in Storm's metrics: {@code ridehailing-orders-decided}, {@code ridehailing-orders-unmatched}
 * and {@code ridehailing-late-answers} (answers that came after their order was decided, so left out of it).
 */
public class BestDriverAggregator extends BaseRichBolt {
    private transient OutputCollector collector;
    private transient DispatchWindows<Tuple> windows;
    private transient Counter decided;
    private transient Counter unmatched;
    private transient Counter lateAnswers;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.windows = new DispatchWindows<>(RideHailingTopology.decideWaitMillis(conf), RideHailingTopology.messageTimeoutMillis(conf));
        this.decided = context.registerCounter("ridehailing-orders-decided");
        this.unmatched = context.registerCounter("ridehailing-orders-unmatched");
        this.lateAnswers = context.registerCounter("ridehailing-late-answers");
    }

    @Override
    public void execute(Tuple tuple) {
        long now = TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
        if (TupleUtils.isTick(tuple)) {
            windows.expire(now).forEach(collector::fail);
        } else if (RideHailingTopology.CLOCK.equals(tuple.getSourceComponent())) {
            collector.ack(tuple);
        } else if (RideHailingTopology.ORDERS.equals(tuple.getSourceComponent())) {
            if (!windows.order(tuple.getStringByField(RideHailingTopology.ORDER_ID), tuple, now)) {
                collector.ack(tuple);
            }
        } else {
            hold(tuple, now);
        }
        for (Decision<Tuple> decision : windows.decideDue(now)) {
            emit(decision);
        }
    }

    private void hold(Tuple tuple, long now) {
        Answer<Tuple> answer = new Answer<>(tuple.getSourceTask(), tuple.getIntegerByField("candidates"),
            tuple.getStringByField(RideHailingTopology.DRIVER_ID), tuple.getDoubleByField(RideHailingTopology.DISTANCE), tuple);
        DispatchWindows.Refusal refusal = windows.answer(tuple.getStringByField(RideHailingTopology.ORDER_ID), answer, now);
        if (refusal != DispatchWindows.Refusal.NONE) {
            if (refusal == DispatchWindows.Refusal.LATE) {
                lateAnswers.inc();
            }
            collector.ack(tuple);
        }
    }

    private void emit(Decision<Tuple> decision) {
        Match best = decision.best();
        List<Tuple> anchors = decision.tuples();
        collector.emit(anchors, new Values(decision.orderId(), best.driverId(), best.distanceMetres(), decision.candidates(),
            decision.order().getLongByField(RideHailingTopology.EMIT_MILLIS)));
        anchors.forEach(collector::ack);
        decided.inc();
        if (!best.hasDriver()) {
            unmatched.inc();
        }
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        return conf;
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(RideHailingTopology.RESULT_FIELDS);
    }
}
