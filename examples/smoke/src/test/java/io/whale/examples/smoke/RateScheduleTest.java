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
        assertEquals(0, r.allowed(0));
        assertEquals(75, r.allowed(secs(0.5)));
        assertEquals(150 * 3600, r.allowed(secs(3600)));
        assertEquals(List.of(0), r.stepStartsSecs());
    }

    @Test
    void shouldAddUpEachStepAndKeepTheLastRateOnceTheStepsAreOver() {
        RateSchedule r = RateSchedule.parse("100:10,1000:5,200");
        assertEquals(500, r.allowed(secs(5)));
        assertEquals(1000, r.allowed(secs(10)));
        assertEquals(1000 + 2000, r.allowed(secs(12)));
        assertEquals(1000 + 5000 + 400, r.allowed(secs(17)));
        assertEquals(List.of(0, 10, 15), r.stepStartsSecs());
        assertEquals("100:10,1000:5,200", r.toString());
        assertEquals(r, RateSchedule.parse(r.toString()));
    }

    @Test
    void shouldRefuseAMalformedScheduleNamingThePartThatIsWrong() {
        assertEquals("rate step '1000' of '100:10,1000,200' must be RATE:SECONDS",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("100:10,1000,200")).getMessage());
        assertEquals("rate step '200:5' of '100:10,200:5' must be RATE (the last step lasts)",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("100:10,200:5")).getMessage());
        assertEquals("seconds '0' in rate schedule '100:0,200' is not a positive whole number",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("100:0,200")).getMessage());
        assertEquals("rate 'fast' in rate schedule 'fast' is not a positive whole number",
            assertThrows(IllegalArgumentException.class, () -> RateSchedule.parse("fast")).getMessage());
    }
}
