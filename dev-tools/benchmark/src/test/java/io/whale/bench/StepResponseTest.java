package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StepResponseTest {
    @Test
    void shouldTimeTheSwitchAndTheWaterlineFromTheStepThatCausedThem() {
        List<ScheduleEvent> events = ScheduleEvent.parse(ScheduleEventTest.LOG, ScheduleEventTest.UTC);
        // one sample a second over 30 s: 200/s delivered, 500/s in the high step's second half, p99 = the second
        List<RateStepSample> samples = IntStream.range(0, 30).mapToObj(s -> new RateStepSample(s + 0.5, 0,
            s >= 15 && s < 20 ? 500 : 200, 1, s, s >= 15 && s < 20 ? 1.9 : 0.5, s >= 15 && s < 20 ? 2.0 : 0.8,
            s >= 15 && s < 20 ? 0.25 : 0.1, List.of())).toList();

        List<StepResponse> steps = StepResponse.of(events, samples);

        assertEquals(3, steps.size());
        StepResponse up = steps.get(1);
        assertEquals("700 orders/s", up.offered());
        assertEquals(10.0, up.atSeconds());
        assertEquals(1, up.switches());
        assertEquals("auto -> 2 SCALE_DOWN", up.firstSwitch());
        assertEquals(1000L, up.firstSwitchFlippedAfterMillis());
        assertEquals(600L, up.firstSwitchDecidedAfterMillis(), "flipped after 1 000 ms, of which 400 draining");
        assertEquals(300L, up.aboveWaterlineAfterMillis());
        assertEquals(1600L, up.backUnderWaterlineAfterMillis());
        assertEquals(500, up.secondHalfBroadcastsPerSecond(), 1e-9, "seconds 15 to 19");
        assertEquals(1.9, up.secondHalfCpuCoresBusy(), 1e-9);
        assertEquals(2.0, up.secondHalfSourceLinkMbit(), 1e-9);
        assertEquals(0.25, up.secondHalfSourceHostCores(), 1e-9, "the spout's host's cores over seconds 15 to 19");
        assertEquals(19, up.secondHalfPeakP99Millis(), 1e-9, "the sample at 19.5 s");
        assertNull(steps.get(0).firstSwitch());
        assertNull(steps.get(2).aboveWaterlineAfterMillis(), "the step down stayed under the waterline");
        assertEquals(2, steps.get(2).switches(), "one timed, one counted");
        assertEquals("3 -> 4 SCALE_UP (after 1 untimed)", steps.get(2).firstSwitch());
    }

    @Test
    void shouldReadARunSavedBeforeTheHostsCoresWereReadAsNotMeasuredRatherThanIdle() throws Exception {
        ObjectMapper json = new ObjectMapper();
        RateStepSample sample = json.readValue("{\"atSeconds\": 1.5, \"emittedPerSecond\": 54, \"broadcastsPerSecond\": 53,"
            + " \"p50Millis\": 300, \"p99Millis\": 500, \"cpuCoresBusy\": 1.5, \"sourceLinkMbit\": 1.2}", RateStepSample.class);
        StepResponse step = json.readValue("{\"step\": 1, \"offered\": \"54 records/s\", \"atSeconds\": 0, \"switches\": 0,"
            + " \"secondHalfBroadcastsPerSecond\": 53, \"secondHalfPeakP99Millis\": 500, \"secondHalfCpuCoresBusy\": 1.5,"
            + " \"secondHalfSourceLinkMbit\": 1.2}", StepResponse.class);

        assertTrue(Double.isNaN(sample.sourceHostCores()), "not read, not 0 cores");
        assertEquals(List.of(), sample.hostCores());
        assertTrue(Double.isNaN(step.secondHalfSourceHostCores()));
    }
}
