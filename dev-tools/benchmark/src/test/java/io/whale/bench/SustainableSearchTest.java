package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SustainableSearchTest {
    /** A system that keeps up to 30 000/s, with a p99 that explodes past it. */
    private static double p99At(double rate) {
        return rate <= 30_000 ? 5 : 5_000;
    }

    @Test
    void shouldBisectTowardsTheHighestRateThatKeepsUp() {
        SustainableSearch search = new SustainableSearch(64_000, 50, 6);
        for (double rate = search.nextRate(); rate > 0; rate = search.nextRate()) {
            search.record(rate, rate <= 30_000 ? 0 : rate - 30_000, p99At(rate));
        }
        assertEquals(30_000, search.sustainableRate(), "32 000 fails; 16 000, 24 000, 28 000, 30 000 pass; 31 000 fails");
    }

    @Test
    void shouldCallARateUnsustainableWhenTheBacklogGrowsOrTheP99IsOverTheBound() {
        assertTrue(SustainableSearch.sustainable(10_000, 150, 20, 50), "1.5 % growth is report jitter");
        assertFalse(SustainableSearch.sustainable(10_000, 500, 20, 50), "5 % of the rate piles up");
        assertFalse(SustainableSearch.sustainable(10_000, 0, 80, 50));
    }

    @Test
    void shouldAnswerZeroWhenNoProbePasses() {
        SustainableSearch search = new SustainableSearch(1_000, 1, 3);
        for (double rate = search.nextRate(); rate > 0; rate = search.nextRate()) {
            search.record(rate, 0, 10);
        }
        assertEquals(0, search.sustainableRate());
    }
}
