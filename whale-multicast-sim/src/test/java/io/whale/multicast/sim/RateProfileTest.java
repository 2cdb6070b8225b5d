package io.whale.multicast.sim;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RateProfileTest {
    @Test
    void shouldStepAtTheGivenTimes() {
        RateProfile profile = RateProfile.paperSteps(40);
        assertEquals(30_000, profile.rateAt(0));
        assertEquals(30_000, profile.rateAt(39_999_999_999L));
        assertEquals(60_000, profile.rateAt(40_000_000_000L));
        assertEquals(80_000, profile.rateAt(500_000_000_000L));
        assertEquals(40_000_000_000L, profile.nextChangeAfter(0));
        assertEquals(80_000_000_000L, profile.nextChangeAfter(40_000_000_000L));
        assertEquals(Long.MAX_VALUE, profile.nextChangeAfter(160_000_000_000L));
    }

    @Test
    void shouldRejectStepsOutOfOrder() {
        assertThrows(IllegalArgumentException.class, () -> new RateProfile(new long[] {0, 5, 5}, new double[] {1, 2, 3}));
        assertThrows(IllegalArgumentException.class, () -> new RateProfile(new long[] {1}, new double[] {1}));
    }
}
