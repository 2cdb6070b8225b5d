package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.bench.Spread;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepBaseTest {
    private static Spread rates(Double... perRound) {
        return Spread.of(List.of(perRound), Double::doubleValue);
    }

    @Test
    void shouldStepToFourThirdsOfTheSequentialStructuresRateSoThatTheTopStepsCrossIt() {
        StepBase base = StepBase.of(rates(60.0, 75.0, 90.0), rates(75.0, 80.0, 85.0)).orElseThrow();
        assertEquals(100, base.ratePerSecond(), 1e-9, "the paper's 100k over its sequential multicast's 75k, whatever the tree carried");
        assertEquals(StepBase.FROM_SEQUENTIAL, base.from());
        double sequential = 75;
        assertTrue(PaperOptions.STEP_SHARES.stream().filter(share -> share * base.ratePerSecond() > sequential).count() >= 2,
            "the 80 % and 100 % steps offer more than the sequential structure carries");
    }

    @Test
    void shouldStepFromTheTreesOwnRateOnlyWhenTheSequentialStructureDidNotRunAndFromNothingWithNeither() {
        StepBase base = StepBase.of(rates(), rates(120.0)).orElseThrow();
        assertEquals(120, base.ratePerSecond(), 1e-9);
        assertEquals(StepBase.FROM_TREE, base.from());
        assertTrue(StepBase.of(rates(), rates()).isEmpty());
    }
}
