package io.whale.multicast;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MulticastTreeTest {

    /** Paper Fig. 6: n = 7, d* = 2; layers T1-1; T2-1, T2-2; T3-1, T3-2, T3-3; T4-1 (ids in joining order). */
    @Test
    void shouldBuildThePapersFigure6Tree() {
        MulticastTree tree = new NonBlockingTreeBuilder(2).build(7);

        List<int[]> layers = tree.layers();
        assertEquals(5, layers.size());
        assertArrayEquals(new int[] {0}, layers.get(0));
        assertArrayEquals(new int[] {1}, layers.get(1), "T1-1");
        assertArrayEquals(new int[] {2, 3}, layers.get(2), "T2-1 (from S), T2-2 (from T1-1)");
        assertArrayEquals(new int[] {4, 5, 6}, layers.get(3), "T3-1, T3-2, T3-3");
        assertArrayEquals(new int[] {7}, layers.get(4), "T4-1");

        assertArrayEquals(new int[] {1, 2}, tree.children(MulticastTree.SOURCE), "S -> T1-1, T2-1");
        assertArrayEquals(new int[] {3, 4}, tree.children(1), "T1-1 -> T2-2, T3-1");
        assertArrayEquals(new int[] {5, 7}, tree.children(2), "T2-1 -> T3-2, T4-1");
        assertArrayEquals(new int[] {6}, tree.children(3), "T2-2 -> T3-3");
        assertEquals(4, tree.completionSteps());
        assertEquals(3, tree.depth());
        assertEquals(2, tree.maxOutDegree());
    }

    @Test
    void shouldRejectANodeWithTwoParents() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MulticastTree.fromChildren(new int[][] {{1, 2}, {2}, {}}));
        assertTrue(e.getMessage().contains("two parents"), e.getMessage());
    }

    @Test
    void shouldRejectACycleDetachedFromTheSource() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MulticastTree.fromChildren(new int[][] {{1}, {}, {3}, {2}}));
        assertTrue(e.getMessage().contains("reachable"), e.getMessage());
    }

    @Test
    void shouldRejectTheSourceAsAChild() {
        assertThrows(IllegalArgumentException.class, () -> MulticastTree.fromChildren(new int[][] {{1}, {0}}));
    }

    @Test
    void shouldMoveASubtreeToTheEndOfTheNewParentsSendOrder() {
        MulticastTree tree = new NonBlockingTreeBuilder(2).build(7);

        MulticastTree moved = tree.apply(new Move(2, 0, 6));

        assertArrayEquals(new int[] {1}, moved.children(0));
        assertArrayEquals(new int[] {2}, moved.children(6));
        assertArrayEquals(new int[] {5, 7}, moved.children(2), "the subtree comes along");
        assertEquals(4, moved.layer(2), "T3-3 sends its first copy in time unit 4");
        assertEquals(6, moved.layer(7));
        assertEquals(7, moved.destinations());
    }

    @Test
    void shouldRefuseAMoveThatWouldCreateACycle() {
        MulticastTree tree = new NonBlockingTreeBuilder(2).build(7);
        assertThrows(IllegalArgumentException.class, () -> tree.apply(new Move(1, 0, 4)));
    }

    @Test
    void shouldRefuseAMoveWithTheWrongOldParent() {
        MulticastTree tree = new NonBlockingTreeBuilder(2).build(7);
        assertThrows(IllegalArgumentException.class, () -> tree.apply(new Move(4, 0, 2)));
    }

    @Test
    void shouldCompareTreesByShapeAndSendOrder() {
        MulticastTree a = MulticastTree.fromChildren(new int[][] {{1, 2}, {}, {}});
        MulticastTree b = MulticastTree.fromChildren(new int[][] {{1, 2}, {}, {}});
        MulticastTree swapped = MulticastTree.fromChildren(new int[][] {{2, 1}, {}, {}});
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, swapped);
        assertTrue(a.isAncestor(0, 2));
        assertFalse(a.isAncestor(1, 2));
    }

    @Test
    void shouldDescribeTheSourceAlone() {
        MulticastTree empty = new SequentialTreeBuilder().build(0);
        assertEquals(0, empty.destinations());
        assertEquals(0, empty.completionSteps());
        assertEquals(0, empty.maxOutDegree());
    }
}
