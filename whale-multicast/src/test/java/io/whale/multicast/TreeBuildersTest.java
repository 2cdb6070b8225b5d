package io.whale.multicast;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TreeBuildersTest {

    @Test
    void sequentialTreeHasTheSourceSendToEveryone() {
        MulticastTree tree = new SequentialTreeBuilder().build(30);
        assertEquals(30, tree.sourceOutDegree());
        assertEquals(30, tree.completionSteps());
        assertEquals(1, tree.depth());
    }

    @Test
    void binomialSourceOutDegreeIsCeilLog2OfNPlusOne() {
        for (int n = 1; n <= 1100; n++) {
            int expected = (int) Math.ceil(Math.log(n + 1) / Math.log(2) - 1e-12);
            MulticastTree tree = new BinomialTreeBuilder().build(n);
            assertEquals(expected, BinomialTreeBuilder.sourceOutDegree(n), "n=" + n);
            assertEquals(expected, tree.sourceOutDegree(), "n=" + n);
            assertEquals(expected, tree.completionSteps(), "holders double every time unit, n=" + n);
            assertEquals(expected, tree.maxOutDegree(), "no relay sends more than the source, n=" + n);
        }
    }

    @Property(tries = 300)
    void nonBlockingTreeRespectsTheBoundAndIsAsFastAsTheBoundAllows(
            @ForAll @IntRange(min = 1, max = 1000) int n, @ForAll @IntRange(min = 1, max = 12) int dStar) {
        MulticastTree tree = new NonBlockingTreeBuilder(dStar).build(n);
        assertEquals(n, tree.destinations());
        assertTrue(tree.maxOutDegree() <= dStar);
        assertEquals(NonBlockingTreeBuilder.effectiveOutDegree(n, dStar), tree.sourceOutDegree());
        assertEquals(MulticastCapability.stepsToReachAll(n, dStar), tree.completionSteps());
    }

    @Property(tries = 200)
    void twoBoundsGiveTheSameTreeExactlyWhenTheirEffectiveOutDegreesAgree(
            @ForAll @IntRange(min = 1, max = 600) int n, @ForAll @IntRange(min = 1, max = 12) int a,
            @ForAll @IntRange(min = 1, max = 12) int b) {
        boolean sameTree = new NonBlockingTreeBuilder(a).build(n).equals(new NonBlockingTreeBuilder(b).build(n));
        boolean sameEffective = NonBlockingTreeBuilder.effectiveOutDegree(n, a)
                == NonBlockingTreeBuilder.effectiveOutDegree(n, b);
        assertEquals(sameEffective, sameTree);
    }

    @Test
    void unboundedNonBlockingTreeIsTheBinomialTree() {
        assertEquals(new BinomialTreeBuilder().build(480), new NonBlockingTreeBuilder(480).build(480));
        assertNotEquals(new BinomialTreeBuilder().build(480), new NonBlockingTreeBuilder(8).build(480));
    }

    @Test
    void structuresAreChosenByTheirConfigurationNames() {
        assertEquals(MulticastStructure.NONBLOCKING, MulticastStructure.fromConfigName(" NonBlocking "));
        assertEquals(30, MulticastStructure.fromConfigName("sequential").builder(3).build(30).sourceOutDegree());
        assertEquals(3, MulticastStructure.NONBLOCKING.builder(3).build(30).sourceOutDegree());
        assertThrows(IllegalArgumentException.class, () -> MulticastStructure.fromConfigName("star"));
        assertThrows(IllegalArgumentException.class, () -> new NonBlockingTreeBuilder(0));
    }
}
