package io.whale.multicast;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SwitchingPlannerTest {
    private final SwitchingPlanner planner = new SwitchingPlanner();

    /** Paper Fig. 8a: scale-down to d* = 2; T3-1 disconnects from S and reconnects to T2-1. */
    @Test
    void scaleDownMovesTheSourcesOverflowChildUnderTheShallowestNodeWithSpareDegree() {
        MulticastTree binomial = new BinomialTreeBuilder().build(7);
        assertEquals(List.of(1, 2, 4), List.of(box(binomial.children(0))), "S -> T1-1, T2-1, T3-1");

        SwitchPlan plan = planner.plan(binomial, 2);

        assertEquals(List.of(new Move(4, 0, 2)), plan.moves());
        assertEquals(2, plan.to().maxOutDegree());
        assertEquals(4, plan.to().completionSteps());
    }

    /** Paper Fig. 8b: scale-up from d* = 2 to 3; T4-1 disconnects from T2-1 and connects to S. */
    @Test
    void scaleUpMovesTheLastReceiverUpToTheSource() {
        MulticastTree tree = new NonBlockingTreeBuilder(2).build(7);

        SwitchPlan plan = planner.plan(tree, 3);

        assertEquals(List.of(new Move(7, 2, 0)), plan.moves());
        assertEquals(3, plan.to().completionSteps());
    }

    @Test
    void aTreeThatAlreadyFitsNeedsNoMoves() {
        MulticastTree tree = new NonBlockingTreeBuilder(3).build(480);
        assertTrue(planner.plan(tree, 3).isEmpty());
        assertEquals(tree, planner.plan(tree, 3).to());
    }

    @Property(tries = 60)
    void everyIntermediateTreeIsValidAndTheResultIsAsFastAsAFreshTree(
            @ForAll @IntRange(min = 1, max = 1000) int n,
            @ForAll @IntRange(min = 1, max = 12) int initial,
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 12) Integer> sequence) {
        checkSwitchSequence(n, initial, sequence);
    }

    @Property(tries = 300)
    void smallTreesSurviveLongSwitchSequences(
            @ForAll @IntRange(min = 1, max = 100) int n,
            @ForAll @IntRange(min = 1, max = 8) int initial,
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 1, max = 8) Integer> sequence) {
        checkSwitchSequence(n, initial, sequence);
    }

    private void checkSwitchSequence(int n, int initial, List<Integer> sequence) {
        MulticastTree tree = new NonBlockingTreeBuilder(initial).build(n);
        for (int dStar : sequence) {
            SwitchPlan plan = planner.plan(tree, dStar);
            int ceiling = Math.max(tree.maxOutDegree(), dStar);
            MulticastTree current = tree;
            for (Move move : plan.moves()) {
                assertEquals(current.parent(move.node()), move.oldParent(), "move names the node's real parent");
                assertTrue(current.outDegree(move.newParent()) < dStar,
                        "a node only gains a child while it is below d*: " + move);
                current = current.apply(move);
                assertSpanningTree(current, n);
                assertTrue(current.maxOutDegree() <= ceiling, "no out-degree above max(d* before, d* after)");
            }
            assertEquals(plan.to(), current);
            assertTrue(current.maxOutDegree() <= dStar, "the final tree respects d*=" + dStar);
            MulticastTree fresh = new NonBlockingTreeBuilder(dStar).build(n);
            assertEquals(fresh.completionSteps(), current.completionSteps(),
                    "same completion steps (layers) as a tree built fresh with d*=" + dStar);
            assertTrue(current.depth() <= current.completionSteps());
            tree = current;
        }
    }

    /** Checked independently of MulticastTree's own validation: one parent each, all reachable from S. */
    private static void assertSpanningTree(MulticastTree tree, int n) {
        assertEquals(n, tree.destinations());
        int[] parentCount = new int[n + 1];
        for (int p = 0; p <= n; p++) {
            for (int c : tree.children(p)) {
                parentCount[c]++;
                assertEquals(p, tree.parent(c));
            }
        }
        assertEquals(0, parentCount[0], "the source has no parent");
        for (int v = 1; v <= n; v++) {
            assertEquals(1, parentCount[v], "destination " + v + " has exactly one parent");
        }
        boolean[] seen = new boolean[n + 1];
        int[] stack = new int[n + 1];
        int top = 0;
        int reached = 0;
        stack[top++] = 0;
        while (top > 0) {
            int v = stack[--top];
            assertTrue(!seen[v], "acyclic");
            seen[v] = true;
            reached++;
            for (int c : tree.children(v)) {
                stack[top++] = c;
            }
        }
        assertEquals(n + 1, reached, "every destination is reachable from the source");
    }

    private static Integer[] box(int[] values) {
        Integer[] boxed = new Integer[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return boxed;
    }
}
