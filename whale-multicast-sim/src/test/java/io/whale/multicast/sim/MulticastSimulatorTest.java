package io.whale.multicast.sim;

import io.whale.multicast.MulticastStructure;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.control.Direction;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MulticastSimulatorTest {
    private static final long TE = 4_000;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aLoneTupleReachesTheLastDestinationAfterCompletionStepsTimesTe() {
        for (MulticastStructure structure : MulticastStructure.values()) {
            MulticastTree tree = structure.builder(3).build(120);
            SimulationResult r = MulticastSimulator.run(
                    SimulationConfig.fixed(120, structure, 3, TE, 64, 20, SECOND, 7));
            assertTrue(r.delivered() > 5, structure + " delivered " + r.delivered());
            double expected = tree.completionSteps() * TE / 1e3;
            assertEquals(expected, r.meanLatencyMicros(), expected * 1e-3, structure.configName());
            assertEquals(expected, r.maxLatencyMicros(), expected * 1e-3, structure.configName());
        }
    }

    @Test
    void wireLatencyIsAddedOncePerHop() {
        SimulationConfig config = new SimulationConfig(10, MulticastStructure.SEQUENTIAL, 1, TE, 1_000, 64,
                RateProfile.constant(20), SECOND, 10_000_000L, 0.8, null, 0, 0, 100_000_000L, 7);
        SimulationResult r = MulticastSimulator.run(config);
        assertEquals(10 * TE / 1e3 + 1, r.meanLatencyMicros(), 0.05, "ten sends, then one hop on the wire");
    }

    @Test
    void aSingleDestinationBehavesLikeAnMD1Queue() {
        double lambda = 125_000;
        SimulationResult r = MulticastSimulator.run(SimulationConfig.fixed(1, MulticastStructure.SEQUENTIAL, 1, TE,
                100_000, lambda, 2 * SECOND, 11));
        double rho = lambda * TE * 1e-9;
        double expected = TE / 1e3 * (1 + rho / (2 * (1 - rho)));
        assertEquals(expected, r.meanLatencyMicros(), 0.03 * expected, "wait in queue + one t_e");
        assertEquals(0, r.droppedAtSource());
    }

    @Test
    void theSameSeedGivesTheSameRun() {
        SimulationConfig config = rateStep(RateStepScenario.FAST_SWITCH_NANOS);
        SimulationResult a = MulticastSimulator.run(config);
        SimulationResult b = MulticastSimulator.run(config);
        assertEquals(a.arrived(), b.arrived());
        assertEquals(a.delivered(), b.delivered());
        assertEquals(a.meanLatencyMicros(), b.meanLatencyMicros());
        assertEquals(a.switches(), b.switches());
    }

    @Test
    void anOverloadedSourceDropsWhatItsQueueCannotHold() {
        SimulationResult r = MulticastSimulator.run(
                SimulationConfig.fixed(30, MulticastStructure.SEQUENTIAL, 1, TE, 256, 30_000, SECOND, 3));
        assertTrue(r.droppedAtSource() > 0);
        assertEquals(r.arrived(), r.delivered() + r.droppedAtSource() + r.leftInQueue());
        assertEquals(1e9 / (30 * TE), r.throughput(), 0.01 * 1e9 / (30 * TE), "the source's service rate");
    }

    @Test
    void aRelayWhoseQueueIsFullCutsItsSubtreeOffThatTuple() {
        int[][] children = new int[31][];
        children[0] = new int[] {1};
        children[1] = new int[29];
        for (int v = 2; v <= 30; v++) {
            children[1][v - 2] = v;
            children[v] = new int[0];
        }
        MulticastTree bottleneck = MulticastTree.fromChildren(children);
        SimulationConfig config = SimulationConfig.fixed(30, MulticastStructure.SEQUENTIAL, 1, TE, 16, 30_000,
                SECOND, 5);

        SimulationResult r = new MulticastSimulator(config, bottleneck).run();

        assertEquals(0, r.droppedAtSource(), "the source itself keeps up (one child)");
        assertTrue(r.partial() > 0, "relay 1 (29 children) cannot");
        assertEquals(r.arrived(), r.delivered() + r.partial() + r.leftInQueue());
        assertEquals(1e9 / (29 * TE), r.throughput(), 0.02 * 1e9 / (29 * TE), "the relay's service rate");
    }

    /** Steps of 1 s instead of 40 s: the controller follows 5 → 4 → 3 → 2 → 3 without losing a tuple. */
    @Test
    void theControllerFollowsTheRateStepsAndLosesNothingWhenTheorem4Holds() {
        SimulationResult r = MulticastSimulator.run(rateStep(RateStepScenario.FAST_SWITCH_NANOS));
        assertEquals(0, r.droppedAtSource());
        assertEquals(0, r.partial());
        assertTrue(r.switches().size() >= 4, r.switches().toString());
        assertEquals(Direction.SCALE_DOWN, r.switches().get(0).direction());
        assertEquals(5, r.switches().get(0).fromMaxOutDegree());
        int[] seen = r.queue().maxOutDegree();
        assertEquals(5, seen[0]);
        assertEquals(2, seen[(int) (3.9 * seen.length / 5)], "at 100k tuples/s d* is 2");
        assertEquals(3, seen[seen.length - 1], "back at 80k tuples/s d* is 3");
        for (SwitchRecord s : r.switches()) {
            assertTrue(s.theorem4Holds(), s.toString());
            assertTrue(s.backUnderWaterlineMillis() >= 0, s.toString());
        }
    }

    @Test
    void switchesThatBreakTheorem4DropTuplesAndTheDropsAreCounted() {
        SimulationResult r = MulticastSimulator.run(rateStep(RateStepScenario.SLOW_SWITCH_NANOS));
        long duringSwitches = 0;
        boolean violated = false;
        for (SwitchRecord s : r.switches()) {
            duringSwitches += s.droppedDuringSwitch();
            violated |= !s.theorem4Holds();
            if (s.theorem4Holds()) {
                assertEquals(0, s.droppedDuringSwitch(), s.toString());
            }
        }
        assertTrue(violated);
        assertTrue(duringSwitches > 0);
        assertTrue(r.droppedAtSource() >= duringSwitches);
        assertFalse(r.switches().isEmpty());
    }

    private static SimulationConfig rateStep(long switchNanos) {
        SimulationConfig base = new SimulationConfig(30, MulticastStructure.NONBLOCKING, 30, TE, 0, 1024,
                RateProfile.paperSteps(1.0), 5 * SECOND, 10_000_000L, 0.8, null, 0, 0, 100_000_000L, 42);
        return base.withController(RateStepScenario.controller(1.0), switchNanos, 100_000L);
    }
}
