package io.whale.receive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ThrottledWarningTest {
    private static final long INTERVAL = 10_000;

    @Test
    void shouldLogTheFirstOccurrenceThenAtMostOncePerIntervalWithTheUnloggedCount() {
        ThrottledWarning warning = new ThrottledWarning(INTERVAL, 1_000);

        assertEquals(0, warning.occurred(1_000));
        assertEquals(ThrottledWarning.SUPPRESS, warning.occurred(1_001));
        assertEquals(ThrottledWarning.SUPPRESS, warning.occurred(10_999));
        assertEquals(2, warning.occurred(11_000), "the two suppressed since the last log");
        assertEquals(ThrottledWarning.SUPPRESS, warning.occurred(20_999));
        assertEquals(1, warning.occurred(50_000));
    }

    @Test
    void shouldHandleNanoTimeWrapAround() {
        ThrottledWarning warning = new ThrottledWarning(INTERVAL, Long.MAX_VALUE - 5);

        assertEquals(0, warning.occurred(Long.MAX_VALUE - 5));
        assertEquals(ThrottledWarning.SUPPRESS, warning.occurred(Long.MAX_VALUE));
        assertEquals(1, warning.occurred(Long.MIN_VALUE + INTERVAL));
    }
}
