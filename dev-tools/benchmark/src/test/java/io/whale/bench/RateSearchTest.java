package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

class RateSearchTest {
    /** Runs the search against a system that keeps up at the shares {@code keepsUp} accepts; returns the shares probed. */
    private static List<Double> probe(RateSearch search, DoublePredicate keepsUp) {
        List<Double> probed = new ArrayList<>();
        for (OptionalDouble next = search.next(); next.isPresent(); next = search.next()) {
            probed.add(next.getAsDouble());
            search.record(next.getAsDouble(), keepsUp.test(next.getAsDouble()));
        }
        return probed;
    }

    @Test
    void shouldStopAtTheFirstProbeWhenItIsTheOnlyOneAllowed() {
        RateSearch search = new RateSearch(1);
        assertEquals(List.of(0.9), probe(search, share -> true));
        assertEquals(0.9, search.sustainedShare());
    }

    @Test
    void shouldStepAboveTheCapacityWhileEveryProbeKeepsUp() {
        RateSearch search = new RateSearch(3);
        assertEquals(List.of(0.9, 1.1, 1.3), probe(search, share -> true));
        assertEquals(1.3, search.sustainedShare());
    }

    @Test
    void shouldHalveTheGapAboveNineTenthsOnceAProbeAboveItFellBehind() {
        RateSearch search = new RateSearch(5);
        assertEquals(List.of(0.9, 1.1, 1.0), probe(search, share -> share <= 1.0));
        assertEquals(1.0, search.sustainedShare());
        assertTrue(search.next().isEmpty(), "the gap is 0.1 C");
    }

    @Test
    void shouldStepDownThenHalveTheGapOnceAProbeKeptUp() {
        RateSearch search = new RateSearch(3);
        assertEquals(List.of(0.9, 0.7, 0.8), probe(search, share -> share <= 0.8));
        assertEquals(0.8, search.sustainedShare());

        RateSearch slower = new RateSearch(3);
        assertEquals(List.of(0.9, 0.7, 0.8), probe(slower, share -> share <= 0.75));
        assertEquals(0.7, slower.sustainedShare(), "0.8 failed: the highest share that kept up");
    }

    @Test
    void shouldSayNoneWhenNoProbeKeptUpWithinTheProbesAllowed() {
        RateSearch search = new RateSearch(3);
        assertEquals(List.of(0.9, 0.7, 0.5), probe(search, share -> share <= 0.3));
        assertEquals(0, search.sustainedShare());
    }

    @Test
    void shouldGoOnStepDownWithMoreProbesUntilTheGapIsATenthOfTheCapacity() {
        RateSearch search = new RateSearch(10);
        List<Double> probed = probe(search, share -> share <= 0.42);
        assertEquals(List.of(0.9, 0.7, 0.5, 0.3, 0.4), probed);
        assertEquals(0.4, search.sustainedShare());
        assertTrue(search.next().isEmpty());
    }

    @Test
    void shouldProbeNothingWhenNoProbeIsAllowed() {
        RateSearch search = new RateSearch(0);
        assertTrue(search.next().isEmpty());
        assertEquals(0, search.sustainedShare());
    }

    @Test
    void shouldCallAProbeKeptUpOnlyWithAFlatBacklogAndAP99WithinTheBound() {
        assertTrue(RateSearch.keptUp(10_000, 450, 20, 50), "4.5 % growth is the offsets' commit jitter");
        assertFalse(RateSearch.keptUp(10_000, 600, 20, 50), "6 % of the rate piles up");
        assertFalse(RateSearch.keptUp(10_000, 0, 80, 50), "p99 over the bound");
        assertFalse(RateSearch.keptUp(10_000, 0, -1, 50), "no latency measured");
    }
}
