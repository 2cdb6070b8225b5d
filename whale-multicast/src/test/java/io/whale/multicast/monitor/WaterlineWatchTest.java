package io.whale.multicast.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class WaterlineWatchTest {
    @Test
    void shouldReportTheRiseOnceAndTheFallWithTheTimeAboveAndThePeak() {
        WaterlineWatch watch = new WaterlineWatch(100, 1);
        assertNull(watch.sample(0, 40));
        assertNull(watch.sample(10, 100), "at the waterline is not above it");
        assertEquals(new WaterlineWatch.Crossing(true, 150, 0, 150), watch.sample(20, 150));
        assertNull(watch.sample(30, 400));
        assertNull(watch.sample(40, 300));
        assertEquals(new WaterlineWatch.Crossing(false, 90, 126, 400), watch.sample(146, 90));
        assertNull(watch.sample(156, 0));
    }

    @Test
    void shouldMeasureEachExcursionFromItsOwnRise() {
        WaterlineWatch watch = new WaterlineWatch(10, 1);
        watch.sample(0, 50);
        watch.sample(5, 0);
        assertEquals(new WaterlineWatch.Crossing(true, 20, 0, 20), watch.sample(100, 20));
        assertEquals(new WaterlineWatch.Crossing(false, 3, 7, 20), watch.sample(107, 3));
    }

    @Test
    void shouldCallTheQueueBackUnderOnlyOnceItStaysUnderAndTimeItFromTheFirstSampleUnder() {
        WaterlineWatch watch = new WaterlineWatch(100, 3);
        assertEquals(new WaterlineWatch.Crossing(true, 900, 0, 900), watch.sample(0, 900));
        assertNull(watch.sample(10, 0), "one sample under");
        assertNull(watch.sample(20, 0));
        assertNull(watch.sample(30, 1368), "a flicker: still the same excursion");
        assertNull(watch.sample(40, 2));
        assertNull(watch.sample(50, 1));
        assertEquals(new WaterlineWatch.Crossing(false, 0, 40, 1368), watch.sample(60, 0));
    }
}
