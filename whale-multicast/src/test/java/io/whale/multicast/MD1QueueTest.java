package io.whale.multicast;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MD1QueueTest {

    @Test
    void meanQueueLengthFollowsEquation2() {
        assertEquals(0.75, MD1Queue.meanQueueLength(1, 2), 1e-12, "ρ=0.5: 0.25/(2·0.5) + 0.5");
        assertEquals(0, MD1Queue.meanQueueLength(0, 2));
        assertEquals(Double.POSITIVE_INFINITY, MD1Queue.meanQueueLength(2, 2));
        assertEquals(Double.POSITIVE_INFINITY, MD1Queue.meanQueueLength(3, 2));
    }

    @Test
    void serviceRatesFollowEquation1AndTheWocVariant() {
        assertEquals(1 / (3 * 4e-6), MD1Queue.serviceRate(3, 4e-6), 1e-6);
        assertEquals(1 / (3 * 1e-6 + 5e-6), MD1Queue.wocServiceRate(3, 1e-6, 5e-6), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> MD1Queue.serviceRate(0, 4e-6));
        assertThrows(IllegalArgumentException.class, () -> MD1Queue.wocServiceRate(1, 0, 0));
    }

    @Test
    void maxStableLoadIsTheRootWhereTheMeanQueueEqualsQ() {
        for (double q : new double[] {0.5, 1, 8, 1024, 1e6}) {
            double rho = MD1Queue.maxStableLoad(q);
            assertEquals(q + 1 - Math.sqrt(q * q + 1), rho, 1e-9);
            assertEquals(q, rho * rho / (2 * (1 - rho)) + rho, 1e-6 * q);
        }
        assertEquals(0, MD1Queue.maxStableLoad(0));
        assertEquals(1, MD1Queue.maxStableLoad(Double.POSITIVE_INFINITY));
    }
}
