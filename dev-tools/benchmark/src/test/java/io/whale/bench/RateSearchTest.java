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
    void shouldStopAtTheFirstProbeWhenItIsTheOnlyOneAllowedAndFellBehind() {
        RateSearch search = new RateSearch(1);
        assertEquals(List.of(0.9), probe(search, share -> false));
        assertEquals(0, search.sustainedShare());
    }

    @Test
    void shouldStepAboveTheCapacityTwiceFurtherEachTimeWhileEveryProbeKeepsUpThenHalveTheBracket() {
        RateSearch search = new RateSearch(3);
        assertEquals(List.of(0.9, 1.1, 1.5, 2.3, 1.9, 2.1), probe(search, share -> share <= 2.0));
        assertEquals(1.9, search.sustainedShare(), "2.3 C fell behind, then 2.1 C, 11 % above 1.9 C: 1.9 C is the rate found");
    }

    @Test
    void shouldGoOnPastTheProbesAllowedUntilOneFallsBehindAsManyAgainAtMost() {
        RateSearch search = new RateSearch(3);
        assertEquals(List.of(0.9, 1.1, 1.5, 2.3, 3.9, 7.1), probe(search, share -> true));
        assertEquals(7.1, search.sustainedShare(), "every probe kept up: a floor");

        RateSearch one = new RateSearch(1);
        assertEquals(List.of(0.9, 1.1, 1.0), probe(one, share -> share < 1));
        assertEquals(0.9, one.sustainedShare(), "1.1 C fell behind, then 1.0 C halfway, 11 % above 0.9 C");
    }

    @Test
    void shouldHalveTheBracketPastTheProbesAllowedUntilWhatFellBehindIsWithinFifteenPercentAboveWhatKeptUp() {
        RateSearch search = new RateSearch(3);
        assertEquals(List.of(0.9, 1.1, 1.5, 1.3, 1.2), probe(search, share -> share <= 1.2));
        assertEquals(1.2, search.sustainedShare(), "1.3 C fell behind, 8 % above: narrow enough");
    }

    @Test
    void shouldHalveTheGapAboveNineTenthsOnceAProbeAboveItFellBehind() {
        RateSearch search = new RateSearch(5);
        assertEquals(List.of(0.9, 1.1, 1.0), probe(search, share -> share <= 1.0));
        assertEquals(1.0, search.sustainedShare());
        assertTrue(search.next().isEmpty(), "1.1 C, which fell behind, lies 10 % above 1.0 C");
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
    void shouldGoOnStepDownWithMoreProbesThenHalveTheBracketUntilItIsWithinFifteenPercent() {
        RateSearch search = new RateSearch(10);
        List<Double> probed = probe(search, share -> share <= 0.42);
        assertEquals(List.of(0.9, 0.7, 0.5, 0.3, 0.4, 0.45), probed);
        assertEquals(0.4, search.sustainedShare());
        assertTrue(search.next().isEmpty());
    }

    @Test
    void shouldRunAProbeThatStartedBehindAnUndrainedBacklogAgainAtTheSameShareOnce() {
        RateSearch search = new RateSearch(3);
        assertEquals(OptionalDouble.of(0.9), search.next());
        search.undrained(0.9);
        assertEquals(OptionalDouble.of(0.9), search.next(), "it says nothing: the same share again after another drain");
        search.record(0.9, true);
        assertEquals(OptionalDouble.of(1.1), search.next(), "the repeat kept up: the first step up, as if it were the first probe");

        RateSearch twice = new RateSearch(3);
        twice.undrained(twice.next().getAsDouble());
        twice.undrained(twice.next().getAsDouble());
        assertEquals(OptionalDouble.of(0.7), twice.next(), "undrained again: taken for a probe that fell behind");
        twice.record(0.7, true);
        twice.undrained(0.8);
        assertEquals(OptionalDouble.empty(), twice.next(), "one repeat a search: 0.8 C fell behind, 0.7 C is within 15 %");
        assertEquals(0.7, twice.sustainedShare());
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
