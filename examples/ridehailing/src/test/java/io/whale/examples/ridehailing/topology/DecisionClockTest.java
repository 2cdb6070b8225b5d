package io.whale.examples.ridehailing.topology;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.codahale.metrics.Counter;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.storm.Config;
import org.apache.storm.generated.GlobalStreamId;
import org.apache.storm.generated.Grouping;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

class DecisionClockTest {
    @Test
    void shouldStrikeOncePerPeriodAndNotMakeUpForAMissedStrike() {
        DecisionClock clock = new DecisionClock(20);

        assertTrue(clock.strikes(1_000), "the first call strikes");
        assertFalse(clock.strikes(1_019));
        assertTrue(clock.strikes(1_020));
        assertTrue(clock.strikes(1_095), "late: strikes once");
        assertFalse(clock.strikes(1_114), "and the next is a period after the late strike, not two behind");
        assertTrue(clock.strikes(1_115));
        assertThrows(IllegalArgumentException.class, () -> new DecisionClock(0));
    }

    @Test
    void shouldDefaultTheClockAndNameTheKeyWhenItIsSlowerThanTheWait() {
        assertEquals(RideHailingTopology.DEFAULT_DECIDE_CLOCK_MS, RideHailingTopology.decideClockMillis(Map.of()));
        assertEquals(5, RideHailingTopology.decideClockMillis(Map.of(RideHailingTopology.DECIDE_CLOCK_KEY, 5L)));
        assertEquals(10, RideHailingTopology.decideClockMillis(Map.of(RideHailingTopology.DECIDE_WAIT_KEY, 10L)),
            "a wait shorter than the default clock, the clock unset: the wait, not a refusal of a key nobody set");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RideHailingTopology.decideClockMillis(
            Map.of(RideHailingTopology.DECIDE_CLOCK_KEY, 200L, RideHailingTopology.DECIDE_WAIT_KEY, 100L)));
        assertTrue(e.getMessage().contains("ridehailing.decide.clock.ms must be from 1 ms to ridehailing.decide.wait.ms (100 ms), not 200"),
            e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RideHailingTopology.decideClockMillis(
            Map.of(RideHailingTopology.DECIDE_CLOCK_KEY, "often"))).getMessage().startsWith("ridehailing.decide.clock.ms must be a whole number"));
    }

    @Test
    void shouldSendTheClockToEveryAggregatorTask() {
        // any spouts stand in for the Kafka ones: the wiring is under test
        StormTopology topology = RideHailingTopology.builder(new DecisionClockSpout(), new DecisionClockSpout(),
            new RideHailingTopology.Parallelism(1, 1, 4, 2), 1).createTopology();

        Map<GlobalStreamId, Grouping> inputs = topology.get_bolts().get(RideHailingTopology.AGGREGATOR).get_common().get_inputs();
        Grouping clock = inputs.get(new GlobalStreamId(RideHailingTopology.CLOCK, Utils.DEFAULT_STREAM_ID));
        assertTrue(clock != null && clock.is_set_all(), "the aggregator takes the clock all-grouped: " + inputs);
        assertEquals(1, topology.get_spouts().get(RideHailingTopology.CLOCK).get_common().get_parallelism_hint());
    }

    @Test
    void shouldDecideADueOrderOnAClockStrikeWhenNoOtherTupleComes() {
        OutputCollector collector = mock(OutputCollector.class);
        TopologyContext context = mock(TopologyContext.class);
        when(context.registerCounter(anyString())).thenAnswer(call -> new Counter());
        BestDriverAggregator aggregator = new BestDriverAggregator();
        aggregator.prepare(Map.of(RideHailingTopology.DECIDE_WAIT_KEY, 1L, Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30), context, collector);
        Tuple order = tuple(RideHailingTopology.ORDERS);
        when(order.getStringByField(RideHailingTopology.ORDER_ID)).thenReturn("order-1");
        when(order.getLongByField(RideHailingTopology.EMIT_MILLIS)).thenReturn(7L);
        Tuple strike = tuple(RideHailingTopology.CLOCK);
        // as a real strike: its one field is the clock's, so reading it as an answer fails
        when(strike.getIntegerByField(anyString())).thenThrow(new IllegalArgumentException("a strike has no such field"));
        when(strike.getStringByField(anyString())).thenThrow(new IllegalArgumentException("a strike has no such field"));

        aggregator.execute(order);
        verify(collector, never()).emit(anyList(), anyList());

        await("a strike after the wait decides the order").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(2))
            .untilAsserted(() -> {
                aggregator.execute(strike);
                verify(collector).emit(List.of(order), List.of("order-1", "", Double.POSITIVE_INFINITY, 0, 7L));
            });
        verify(collector).ack(order);
        verify(collector, atLeastOnce()).ack(strike);
    }

    private static Tuple tuple(String component) {
        Tuple tuple = mock(Tuple.class);
        when(tuple.getSourceComponent()).thenReturn(component);
        when(tuple.getSourceStreamId()).thenReturn(Utils.DEFAULT_STREAM_ID);
        return tuple;
    }
}
