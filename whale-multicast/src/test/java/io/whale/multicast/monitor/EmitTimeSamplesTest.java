package io.whale.multicast.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmitTimeSamplesTest {
    private final EmitTimeSamples samples = new EmitTimeSamples();
    private final List<String> folded = new ArrayList<>();

    private void release(long upTo) {
        samples.release(upTo, (nanos, frames) -> folded.add(nanos + "/" + frames));
    }

    @Test
    void shouldReleaseSamplesOldestFirstOnceNoWaitingChildCanStillTurnThemIntoAStall() {
        samples.add(10, 2_000, 1);
        samples.add(20, 10_000, 2);
        samples.add(30, 10_000, 3);
        release(20);
        assertEquals(List.of("2000/1", "10000/2"), folded, "the samples of intervals that ended by the time a child began waiting");
        release(100);
        assertEquals(List.of("2000/1", "10000/2", "10000/3"), folded);
    }

    @Test
    void shouldDropTheSamplesTakenSinceAStalledChildBeganWaiting() {
        samples.add(10, 2_000, 1);
        samples.add(20, 10_000_000, 1);
        samples.add(30, 10_000_000, 1);
        samples.dropAfter(10);
        release(100);
        assertEquals(List.of("2000/1"), folded);
    }
}
