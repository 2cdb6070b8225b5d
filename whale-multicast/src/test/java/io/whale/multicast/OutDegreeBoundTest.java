package io.whale.multicast;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutDegreeBoundTest {

    @Property(tries = 500)
    void maxOutDegreeKeepsTheMeanQueueWithinQAndOneMoreDoesNot(
            @ForAll @DoubleRange(min = 1, max = 1e6) double lambda,
            @ForAll @DoubleRange(min = 1e-7, max = 1e-4) @Scale(12) double te,
            @ForAll @IntRange(min = 1, max = 10_000) int capacity,
            @ForAll @IntRange(min = 1, max = 1000) int n) {
        int d = OutDegreeBound.maxOutDegree(lambda, te, capacity, n);
        assertTrue(d >= 1 && d <= n);
        double atD = MD1Queue.meanQueueLength(lambda, MD1Queue.serviceRate(d, te));
        if (d > 1) {
            assertTrue(atD <= capacity, "E(L) at d*=" + d + " is " + atD);
        }
        if (d < n) {
            double above = MD1Queue.meanQueueLength(lambda, MD1Queue.serviceRate(d + 1, te));
            assertTrue(above > capacity, "E(L) at d*+1=" + (d + 1) + " is " + above + " <= Q=" + capacity);
        }
        double closedForm = (capacity + 1 - Math.sqrt((double) capacity * capacity + 1)) / (lambda * te);
        if (Math.abs(closedForm - Math.rint(closedForm)) > 1e-6) {
            assertEquals((int) Math.max(1, Math.min(n, Math.floor(closedForm))), d,
                    "d* = floor((Q+1-sqrt(Q^2+1))/(λ·t_e)) clamped to [1, n]");
        }
    }

    @Test
    void edgeCasesStayInsideOneToN() {
        assertEquals(30, OutDegreeBound.maxOutDegree(0, 4e-6, 1024, 30), "λ = 0: any out-degree is affordable");
        assertEquals(1, OutDegreeBound.maxOutDegree(1000, 4e-6, 0, 30), "Q = 0: nothing queues, go as fast as possible");
        assertEquals(1, OutDegreeBound.maxOutDegree(1e6, 4e-6, 1024, 30), "λ above μ even at d0 = 1");
        assertEquals(30, OutDegreeBound.maxOutDegree(1, 4e-6, 1024, 30), "clamped to n");
        assertEquals(1, OutDegreeBound.maxOutDegree(0, 4e-6, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> OutDegreeBound.maxOutDegree(-1, 4e-6, 10, 30));
        assertThrows(IllegalArgumentException.class, () -> OutDegreeBound.maxOutDegree(Double.NaN, 4e-6, 10, 30));
        assertThrows(IllegalArgumentException.class, () -> OutDegreeBound.maxOutDegree(1, 0, 10, 30));
        assertThrows(IllegalArgumentException.class, () -> OutDegreeBound.maxOutDegree(1, 4e-6, -1, 30));
        assertThrows(IllegalArgumentException.class, () -> OutDegreeBound.maxOutDegree(1, 4e-6, 10, 0));
    }

    /** The erratum: Eq. 3 as printed is the other root of ρ² − 2(Q+1)ρ + 2Q = 0, where the queue is unstable. */
    @Test
    void printedEquation3IsTheUnstableRoot() {
        double lambda = 60_000;
        double te = 4e-6;
        int capacity = 1024;
        double printed = OutDegreeBound.printedEquation3(lambda, te, capacity);
        double otherRoot = (capacity + 1 + Math.sqrt((double) capacity * capacity + 1)) / (lambda * te);
        assertEquals(otherRoot, printed, 1e-6 * otherRoot);
        assertTrue(lambda * te * Math.floor(printed) > 1, "ρ > 1 at the printed bound");
        assertEquals(Double.POSITIVE_INFINITY,
                MD1Queue.meanQueueLength(lambda, MD1Queue.serviceRate((int) Math.floor(printed), te)));

        int stable = OutDegreeBound.maxOutDegree(lambda, te, capacity, 10_000);
        assertEquals(4, stable, "(Q+1-sqrt(Q^2+1))/(λ·t_e) = 4.165");
        assertTrue(MD1Queue.meanQueueLength(lambda, MD1Queue.serviceRate(stable, te)) <= capacity);
    }

    @Property(tries = 200)
    void maxAffordableRateIsInverselyProportionalToTheSourceOutDegree(
            @ForAll @IntRange(min = 1, max = 64) int d0,
            @ForAll @DoubleRange(min = 1e-7, max = 1e-3) @Scale(12) double te,
            @ForAll @IntRange(min = 1, max = 100_000) int capacity) {
        double m1 = OutDegreeBound.maxAffordableRate(1, te, capacity);
        double m = OutDegreeBound.maxAffordableRate(d0, te, capacity);
        assertEquals(m1 / d0, m, 1e-12 * m1, "Theorem 1: M ∝ 1/d0");
        double atM = MD1Queue.meanQueueLength(m, MD1Queue.serviceRate(d0, te));
        assertEquals(capacity, atM, 1e-6 * capacity, "E(L) = Q exactly at λ = M (Eq. 5)");
    }

    @Property(tries = 300)
    void wocBoundKeepsTheMeanQueueWithinQAndOneMoreDoesNot(
            @ForAll @DoubleRange(min = 1, max = 2e5) double lambda,
            @ForAll @DoubleRange(min = 1e-8, max = 1e-5) @Scale(12) double td,
            @ForAll @DoubleRange(min = 0, max = 2e-5) @Scale(12) double ts,
            @ForAll @IntRange(min = 1, max = 5000) int capacity,
            @ForAll @IntRange(min = 1, max = 500) int n) {
        int d = OutDegreeBound.wocMaxOutDegree(lambda, td, ts, capacity, n);
        assertTrue(d >= 1 && d <= n);
        if (d > 1) {
            assertTrue(MD1Queue.meanQueueLength(lambda, MD1Queue.wocServiceRate(d, td, ts)) <= capacity);
        }
        if (d < n) {
            assertTrue(MD1Queue.meanQueueLength(lambda, MD1Queue.wocServiceRate(d + 1, td, ts)) > capacity);
        }
    }

    @Test
    void wocBoundWithoutPerDestinationCostIsAllOrNothing() {
        assertEquals(30, OutDegreeBound.wocMaxOutDegree(1000, 0, 1e-6, 1024, 30));
        assertEquals(1, OutDegreeBound.wocMaxOutDegree(2e6, 0, 1e-6, 1024, 30));
    }
}
