package io.whale.multicast.control;

import io.whale.multicast.NonBlockingTreeBuilder;
import io.whale.multicast.OutDegreeBound;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MulticastControllerTest {
    private static final double TE = 4e-6;
    private static final double UNKNOWN = Double.NaN;

    /** n = 30 (effective ceiling 5), Q = 1024, l_w = 512, T_up = T_down = 0.5, no hold, scale up at once. */
    private static ControllerConfig config(int hold, int confirm) {
        return new ControllerConfig(30, 1024, 512, 0.5, 0.5, hold, confirm);
    }

    @Test
    void scaleDownFiresWhenGrowthReachesTDownOfTheRoomUnderTheWaterline() {
        MulticastController controller = new MulticastController(config(0, 1), 5);
        // l_w − l = 512 − 312 = 200, ΔL = 99: 0.495 < 0.5
        assertEquals(Optional.empty(), controller.onInterval(213, 312, UNKNOWN, UNKNOWN));
        // ΔL = 100: exactly T_down
        Decision decision = controller.onInterval(212, 312, UNKNOWN, UNKNOWN).orElseThrow();
        assertEquals(Direction.SCALE_DOWN, decision.direction());
        assertEquals(5, decision.fromMaxOutDegree());
        assertEquals(4, decision.toMaxOutDegree(), "without a model the controller steps down by one");
        assertEquals(4, controller.maxOutDegree());
    }

    @Test
    void scaleDownGoesAsFarAsTheModelAsks() {
        MulticastController controller = new MulticastController(config(0, 1), 5);
        Decision decision = controller.onInterval(100, 400, 100_000, TE).orElseThrow();
        assertEquals(OutDegreeBound.maxOutDegree(100_000, TE, 1024, 30), decision.toMaxOutDegree());
        assertEquals(2, decision.toMaxOutDegree());
    }

    @Test
    void aboveTheWaterlineGrowthIsJudgedAgainstTheRoomLeftInTheQueue() {
        MulticastController controller = new MulticastController(config(0, 1), 5);
        // Q − l = 1024 − 824 = 200
        assertEquals(Optional.empty(), controller.onInterval(725, 824, UNKNOWN, UNKNOWN));
        assertEquals(Optional.empty(), controller.onInterval(900, 824, UNKNOWN, UNKNOWN), "a draining queue is left alone");
        assertTrue(controller.onInterval(724, 824, UNKNOWN, UNKNOWN).isPresent());
    }

    @Test
    void aQueueAtAHundredthOfTheWaterlineCountsAsEmptyForTheScaleUp() {
        MulticastController controller = new MulticastController(config(0, 2), 2);
        assertEquals(5, config(0, 2).idleLength());
        assertEquals(Optional.empty(), controller.onInterval(5, 5, 60_000, TE), "first idle interval");
        assertEquals(Direction.SCALE_UP, controller.onInterval(4, 5, 60_000, TE).orElseThrow().direction());
        MulticastController busy = new MulticastController(config(0, 2), 2);
        busy.onInterval(6, 6, 60_000, TE);
        assertEquals(Optional.empty(), busy.onInterval(6, 6, 60_000, TE), "six tuples that do not drain are a queue");
    }

    @Test
    void scaleUpFiresOnARelativeDropOrAnEmptyQueueAndFollowsTheModel() {
        MulticastController controller = new MulticastController(config(0, 1), 2);
        assertEquals(Optional.empty(), controller.onInterval(100, 51, 60_000, TE), "a 49% drop is below T_up");
        Decision decision = controller.onInterval(100, 50, 60_000, TE).orElseThrow();
        assertEquals(Direction.SCALE_UP, decision.direction());
        assertEquals(4, decision.toMaxOutDegree(), "d*(60k tuples/s, 4 µs) = 4");

        MulticastController idle = new MulticastController(config(0, 1), 1);
        assertEquals(Direction.SCALE_UP, idle.onInterval(0, 0, 60_000, TE).orElseThrow().direction());
    }

    @Test
    void scaleUpNeverGoesPastTheModelBound() {
        MulticastController controller = new MulticastController(config(0, 1), 4);
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 60_000, TE), "d* is already the bound");
        assertEquals(4, controller.maxOutDegree());
    }

    @Test
    void noDecisionWhenTheTreeWouldNotChange() {
        // n = 30: every d* >= 5 builds the binomial tree.
        MulticastController controller = new MulticastController(config(0, 1), 12);
        assertEquals(5, controller.maxOutDegree());
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE), "the model says 30, the tree is binomial already");
        assertEquals(new NonBlockingTreeBuilder(5).build(30), new NonBlockingTreeBuilder(30).build(30));

        MulticastController bottom = new MulticastController(config(0, 1), 1);
        assertEquals(Optional.empty(), bottom.onInterval(0, 500, UNKNOWN, UNKNOWN), "d* = 1 cannot go lower");
    }

    @Test
    void holdsAfterADecisionAndNeedsAgreeingIntervalsToScaleUp() {
        MulticastController controller = new MulticastController(config(3, 2), 5);
        assertEquals(Direction.SCALE_DOWN, controller.onInterval(0, 400, UNKNOWN, UNKNOWN).orElseThrow().direction());
        for (int i = 0; i < 3; i++) {
            assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE), "holding, interval " + i);
        }
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE), "first agreeing interval");
        Decision up = controller.onInterval(0, 0, 1_000, TE).orElseThrow();
        assertEquals(Direction.SCALE_UP, up.direction());
        assertEquals(4, up.fromMaxOutDegree());
        assertEquals(5, up.toMaxOutDegree());
    }

    @Test
    void shouldNotScaleUpBeforeTheNewShapeRanAsLongAsTheSwitchTookToLand() {
        MulticastController controller = new MulticastController(config(3, 2), 5);
        assertEquals(Direction.SCALE_DOWN, controller.onInterval(0, 400, UNKNOWN, UNKNOWN).orElseThrow().direction());
        controller.landed(100);
        for (int i = 0; i < 3 + 100; i++) {
            assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE), "the queue a drain emptied, interval " + i);
        }
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE), "first agreeing interval");
        assertEquals(Direction.SCALE_UP, controller.onInterval(0, 0, 1_000, TE).orElseThrow().direction());
    }

    @Test
    void shouldStillScaleDownWhileAScaleUpIsHeldAfterASwitchLanded() {
        MulticastController controller = new MulticastController(config(0, 1), 5);
        assertEquals(4, controller.onInterval(0, 400, UNKNOWN, UNKNOWN).orElseThrow().toMaxOutDegree());
        controller.landed(100);
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE));
        assertEquals(3, controller.onInterval(0, 400, UNKNOWN, UNKNOWN).orElseThrow().toMaxOutDegree(),
            "a queue that grows is judged at once");
    }

    @Test
    void shouldConfirmAScaleUpAfreshAfterAnIntervalHeldForAStalledMember() {
        MulticastController controller = new MulticastController(config(0, 2), 2);
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE), "first agreeing interval");
        controller.held();
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE), "first again after the hold");
        assertEquals(Direction.SCALE_UP, controller.onInterval(0, 0, 1_000, TE).orElseThrow().direction());
    }

    @Test
    void shouldNotCountAnIntervalWhoseSendsWaitedForTheirWindowTowardsAScaleUp() {
        MulticastController controller = new MulticastController(config(0, 2), 2);
        for (int i = 0; i < 5; i++) {
            assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE, true), "an empty queue, but held by the window");
        }
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE, false), "first idle interval");
        assertEquals(Direction.SCALE_UP, controller.onInterval(0, 0, 1_000, TE, false).orElseThrow().direction());
        assertEquals(Direction.SCALE_DOWN, new MulticastController(config(0, 2), 5).onInterval(0, 400, 1_000, TE, true)
            .orElseThrow().direction(), "a growing queue scales down, window or not");
    }

    @Test
    void shouldNotScaleBackUpToADegreeItLeftAtAboutTheSameRate() {
        MulticastController controller = new MulticastController(config(0, 1), 5);
        assertEquals(4, controller.onInterval(100, 400, 500, UNKNOWN).orElseThrow().toMaxOutDegree(), "5 did not carry 500/s");
        assertEquals(3, controller.onInterval(100, 400, 600, UNKNOWN).orElseThrow().toMaxOutDegree(), "4 did not carry 600/s");

        assertEquals(Optional.empty(), controller.onInterval(0, 0, 460, TE),
            "idle at 460/s, but 5 failed at 500/s and 4 right after, under the same load");
        assertEquals(5, controller.onInterval(0, 0, 440, TE).orElseThrow().toMaxOutDegree(), "below 90 % of 500/s");
    }

    @Test
    void shouldNotTakeTheRateAWiderTreeFailedAtLongerAgoThanACascadeForANarrowerOne() {
        MulticastController controller = new MulticastController(config(0, 1), 5);
        assertEquals(4, controller.onInterval(100, 400, 300, UNKNOWN).orElseThrow().toMaxOutDegree(), "5 did not carry 300/s");
        for (int i = 0; i < ControllerConfig.CASCADE_INTERVALS; i++) {
            controller.onInterval(300, 300, 300, TE);
        }
        assertEquals(3, controller.onInterval(100, 400, 600, UNKNOWN).orElseThrow().toMaxOutDegree(), "4 did not carry 600/s");

        assertEquals(4, controller.onInterval(0, 0, 530, TE).orElseThrow().toMaxOutDegree(),
            "4 may be tried below 90 % of 600/s; 5, which failed at 300/s, not");
    }

    @Test
    void shouldRememberTheLowestRateADegreeRecentlyFailedAt() {
        // three destinations: out-degree 1 (a chain) or 2
        MulticastController controller = new MulticastController(new ControllerConfig(3, 1024, 512, 0.5, 0.5, 0, 1), 2);
        assertEquals(1, controller.onInterval(100, 400, 400, UNKNOWN).orElseThrow().toMaxOutDegree(), "2 did not carry 400/s");
        assertEquals(2, controller.onInterval(0, 0, 350, TE).orElseThrow().toMaxOutDegree(), "under 90 % of 400/s");
        assertEquals(1, controller.onInterval(100, 400, 600, UNKNOWN).orElseThrow().toMaxOutDegree(),
            "failed again, while the backlog left at 600/s");

        assertEquals(Optional.empty(), controller.onInterval(0, 0, 370, TE), "2 failed at 400/s, whatever it read later");
        assertEquals(2, controller.onInterval(0, 0, 350, TE).orElseThrow().toMaxOutDegree());
    }

    @Test
    void shouldForgetALowRateADegreeFailedAtOnceItIsOldEnoughThoughTheDegreeFailedSinceAtAHigherOne() {
        MulticastController controller = new MulticastController(new ControllerConfig(3, 1024, 512, 0.5, 0.5, 0, 1), 2);
        assertEquals(1, controller.onInterval(100, 400, 200, UNKNOWN).orElseThrow().toMaxOutDegree(), "2 did not carry 200/s");
        for (int i = 0; i < ControllerConfig.FAILURE_MEMORY_INTERVALS / 2; i++) {
            controller.onInterval(300, 300, 150, TE);
        }
        assertEquals(2, controller.onInterval(0, 0, 150, TE).orElseThrow().toMaxOutDegree());
        assertEquals(1, controller.onInterval(100, 400, 600, UNKNOWN).orElseThrow().toMaxOutDegree(), "nor, later, 600/s");
        for (int i = 0; i < ControllerConfig.FAILURE_MEMORY_INTERVALS / 2; i++) {
            controller.onInterval(300, 300, 500, TE);
        }

        assertEquals(2, controller.onInterval(0, 0, 520, TE).orElseThrow().toMaxOutDegree(),
            "the failure at 200/s is over 10 s old; 520/s is under 90 % of the one at 600/s");
    }

    @Test
    void shouldTryADegreeAgainOnceItsScaleDownIsOldEnough() {
        MulticastController controller = new MulticastController(config(0, 1), 5);
        controller.onInterval(100, 400, 500, UNKNOWN).orElseThrow();
        for (int i = 0; i < ControllerConfig.FAILURE_MEMORY_INTERVALS - 1; i++) {
            controller.onInterval(300, 300, 500, TE);
        }
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 500, TE));
        assertEquals(5, controller.onInterval(0, 0, 500, TE).orElseThrow().toMaxOutDegree(), "ten seconds on, 5 is tried again");
    }

    @Test
    void shouldKeepAFailureForAsManyIntervalsAsItsSettingsSay() {
        // a worker deciding every 100 ms keeps 10 s as 100 intervals
        MulticastController controller = new MulticastController(new ControllerConfig(30, 1024, 512, 0.5, 0.5, 0, 1, 100, 10), 5);
        controller.onInterval(100, 400, 500, UNKNOWN).orElseThrow();
        for (int i = 0; i < 99; i++) {
            controller.onInterval(300, 300, 500, TE);
        }
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 500, TE));
        assertEquals(5, controller.onInterval(0, 0, 500, TE).orElseThrow().toMaxOutDegree(), "100 intervals on, 5 is tried again");
    }

    @Test
    void scaleUpStreakMustBeConsecutive() {
        MulticastController controller = new MulticastController(config(0, 2), 2);
        assertEquals(Optional.empty(), controller.onInterval(0, 0, 1_000, TE));
        assertEquals(Optional.empty(), controller.onInterval(0, 6, 1_000, TE), "the streak breaks: 6 is more than the idle 5");
        assertEquals(Optional.empty(), controller.onInterval(6, 0, 1_000, TE));
        Decision decision = controller.onInterval(0, 0, 1_000, TE).orElseThrow();
        assertEquals(5, decision.toMaxOutDegree());
        assertNotEquals(decision.fromMaxOutDegree(), decision.toMaxOutDegree());
    }

    @Test
    void rejectsInconsistentSettings() {
        assertThrows(IllegalArgumentException.class, () -> new ControllerConfig(30, 100, 200, 0.5, 0.5, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ControllerConfig(30, 100, 50, 0, 0.5, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ControllerConfig(0, 100, 50, 0.5, 0.5, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ControllerConfig(30, 100, 50, 0.5, 0.5, 0, 1, 0, 1));
    }
}
