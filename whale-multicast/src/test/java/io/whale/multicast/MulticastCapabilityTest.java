package io.whale.multicast;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MulticastCapabilityTest {

    @Test
    void figure6TreeFollowsEquation7() {
        assertArrayEquals(new long[] {1, 2, 4, 7, 8, 8}, MulticastCapability.holders(7, 2, 5));
    }

    @Test
    void unboundedTreeDoublesEveryStepAsInEquation6() {
        assertArrayEquals(new long[] {1, 2, 4, 8, 16, 32, 64, 128, 256, 481}, MulticastCapability.holders(480, 9, 9));
    }

    /** L(t) from the recursion equals the number of nodes of Algorithm 1's tree that hold the tuple after t units. */
    @Property(tries = 300)
    void recursionMatchesTheBuiltTree(@ForAll @IntRange(min = 1, max = 1000) int n,
                                      @ForAll @IntRange(min = 1, max = 12) int dStar) {
        MulticastTree tree = new NonBlockingTreeBuilder(dStar).build(n);
        long[] holders = MulticastCapability.holders(n, dStar, tree.completionSteps() + 1);
        int[] perLayer = new int[tree.completionSteps() + 2];
        for (int v = 0; v < tree.nodeCount(); v++) {
            perLayer[tree.layer(v)]++;
        }
        long cumulative = 0;
        for (int t = 0; t < holders.length; t++) {
            cumulative += perLayer[t];
            assertEquals(cumulative, holders[t], "t=" + t);
        }
    }

    /** Theorem 2: for every t, a larger d0 holds at least as many nodes. */
    @Property(tries = 200)
    void capabilityGrowsWithTheOutDegree(@ForAll @IntRange(min = 1, max = 1000) int n,
                                         @ForAll @IntRange(min = 1, max = 10) int d) {
        int steps = MulticastCapability.stepsToReachAll(n, d);
        long[] smaller = MulticastCapability.holders(n, d, steps);
        long[] larger = MulticastCapability.holders(n, d + 1, steps);
        for (int t = 0; t <= steps; t++) {
            assertTrue(smaller[t] <= larger[t], "t=" + t);
        }
        assertTrue(MulticastCapability.stepsToReachAll(n, d + 1) <= steps);
    }
}
