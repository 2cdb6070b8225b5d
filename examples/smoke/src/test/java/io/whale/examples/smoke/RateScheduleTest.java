package io.whale.examples.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RateScheduleTest {
    private static long secs(double s) {
        return (long) (s * TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void shouldAllowOneRateAllAlongWhenGivenANumber() {
        RateSchedule r = RateSchedule.parse("150");
        assertEquals(0, r.stepAt(secs(3600)));
        assertEquals(75, r.allowedInStep(0, secs(0.5)));
        assertEquals(150 * 3600, r.allowedInStep(0, secs(3600)));
        assertEquals(List.of(0L), r.stepStartsSecs());
    }

    @Test
    void shouldPaceEachStepFromItsOwnStartAndKeepALastStepWithoutSeconds() {
        RateSchedule r = RateSchedule.parse("100:10,1000:5,200");
        assertEquals(List.of(0, 0, 1, 1, 2, 2), List.of(r.stepAt(0), r.stepAt(secs(9.9)), r.stepAt(secs(10)), r.stepAt(secs(14.9)),
            r.stepAt(secs(15)), r.stepAt(secs(3600))));
        assertEquals(secs(10), r.stepStartNanos(1));
        assertEquals(2000, r.allowedInStep(1, secs(12) - r.stepStartNanos(1)));
        assertEquals(List.of(0L, 10L, 15L), r.stepStartsSecs());
        assertEquals(List.of(100, 1000, 200), List.of(r.rate(0), r.rate(1), r.rate(2)));
        assertEquals(Long.MAX_VALUE, r.lengthNanos());
        assertEquals("100:10,1000:5,200", r.toString());
        assertEquals(r, RateSchedule.parse(r.toString()));
    }

    @Test
    void shouldAllowNothingOnceALastStepWithSecondsIsOver() {
        RateSchedule r = RateSchedule.parse("100:10,300:5");
        assertEquals(secs(15), r.lengthNanos());
        assertEquals(2, r.stepAt(secs(15)));
        assertEquals(r.steps(), r.stepAt(secs(15)));
        assertEquals(0, r.allowedInStep(2, secs(100)));
        assertEquals("100:10,300:5", r.toString());
    }

    @Test
    void shouldRefuseAMalformedScheduleNamingThePartThatIsWrong() {
        assertEquals("rate step '1000' of '100:10,1000,200' must be RATE:SECONDS",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("100:10,1000,200")).getMessage());
        assertEquals("rate step '200:5:1' of '100:10,200:5:1' must be RATE:SECONDS or RATE (the last step lasts)",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("100:10,200:5:1")).getMessage());
        assertEquals("seconds '0' in rate schedule '100:0,200' is not a positive whole number",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("100:0,200")).getMessage());
        assertEquals("rate 'fast' in rate schedule 'fast' is not a positive whole number",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("fast")).getMessage());
    }
}
