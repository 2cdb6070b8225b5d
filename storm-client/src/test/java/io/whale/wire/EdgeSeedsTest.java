package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The edge ids WOC's collectors derive from one seed per anchor: the receiving worker derives every copy's ids from
 * the seeds alone, and the acker's ledger completes a tuple tree exactly when every copy has been acked.
 */
class EdgeSeedsTest {

    @Property(tries = 200)
    void shouldDeriveEveryCopysIdsFromTheSeedsAsTheCollectorBuiltThem(@ForAll long randomSeed,
                                                                      @ForAll @IntRange(min = 1, max = 4) int anchorCount,
                                                                      @ForAll @IntRange(min = 2, max = 64) int tasks) {
        Random random = new Random(randomSeed);
        List<List<Long>> anchorRoots = new ArrayList<>();
        for (int a = 0; a < anchorCount; a++) {
            // anchors of one bolt input share its root; a joined input adds another
            anchorRoots.add(a % 2 == 0 ? List.of(100L) : List.of(100L, 200L + a));
        }
        EdgeSeeds.Draw draw = new EdgeSeeds.Draw();
        Map<Integer, Map<Long, Long>> built = new HashMap<>();
        for (int task = 1; task <= tasks; task++) {
            Map<Long, Long> anchorsToIds = new HashMap<>();
            for (int a = 0; a < anchorCount; a++) {
                long edgeId = draw.edgeId(random, a, anchorRoots.get(a), task);
                for (long root : anchorRoots.get(a)) {
                    anchorsToIds.merge(root, edgeId, (x, y) -> x ^ y); // BoltOutputCollectorImpl.putXor
                }
            }
            built.put(task, anchorsToIds);
        }

        EdgeSeeds sent = draw.seeds();
        ByteBuffer wire = ByteBuffer.allocate((int) sent.bytes());
        sent.put(wire);
        assertEquals(0, wire.remaining(), "bytes() is what put() writes");
        EdgeSeeds received = EdgeSeeds.read(wire.flip(), "test");
        for (int task = 1; task <= tasks; task++) {
            assertEquals(built.get(task), received.idsOf(task), "task " + task);
        }
        assertEquals(built.get(1).keySet(), received.roots(), "the roots every copy owes an ack");
    }

    @Property(tries = 100)
    void shouldGiveEveryTaskOfAnEmitItsOwnEdgeId(@ForAll long seed) {
        Set<Long> ids = new HashSet<>();
        for (int task = -1; task < 2_000; task++) {
            assertTrue(ids.add(EdgeSeeds.edgeId(seed, task)), "task " + task + " repeats an edge id");
        }
    }

    /**
     * A bolt that broadcasts twice on one input: the acker's ledger for the root must stay open until every copy of
     * both broadcasts is acked. Ids of the form {@code seed ^ f(task)} would fail this: the XOR of an even number of
     * copies' ids cancels the seed, so the two broadcasts' XORs are equal and the bolt's own ack would clear the root.
     */
    @Property(tries = 300)
    void shouldKeepATupleTreeOpenUntilEveryCopyOfEveryBroadcastIsAcked(@ForAll long randomSeed,
                                                                        @ForAll @IntRange(min = 2, max = 32) int tasks,
                                                                        @ForAll @IntRange(min = 1, max = 3) int broadcasts) {
        Random random = new Random(randomSeed);
        long spoutEdge = random.nextLong();
        long ledger = spoutEdge; // the acker's value for the root once the spout's emit is registered
        long boltAckVal = spoutEdge; // the bolt's input carries its own edge id, XORed with every id emitted anchored on it
        List<Long> roots = List.of(1L);
        List<Long> copies = new ArrayList<>();
        for (int b = 0; b < broadcasts; b++) {
            EdgeSeeds.Draw draw = new EdgeSeeds.Draw();
            for (int task = 1; task <= tasks; task++) {
                long id = draw.edgeId(random, 0, roots, task);
                boltAckVal ^= id;
                copies.add(id);
            }
        }
        ledger ^= boltAckVal;
        for (long copy : copies) {
            assertNotEquals(0L, ledger, "the tree completed before every copy was acked");
            ledger ^= copy;
        }
        assertEquals(0L, ledger, "every copy acked completes the tree");
    }

    @Example
    void shouldDrawNoSeedsForAnUnanchoredEmitAndStartAfreshAfterClear() {
        EdgeSeeds.Draw draw = new EdgeSeeds.Draw();
        assertNull(draw.seeds());
        long first = draw.edgeId(new Random(1), 0, List.of(5L), 3);
        assertEquals(first, draw.edgeId(new Random(99), 0, List.of(5L), 3), "the seed is drawn once per anchor");
        draw.clear();
        assertNull(draw.seeds());
        assertNotEquals(first, draw.edgeId(new Random(2), 0, List.of(5L), 3), "a new emit draws a new seed");
    }

    @Example
    void shouldRefuseAnAnchorAskedForOutOfOrder() {
        EdgeSeeds.Draw draw = new EdgeSeeds.Draw();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> draw.edgeId(new Random(1), 1, List.of(5L), 3));
        assertTrue(e.getMessage().contains("anchor 1 asked for before anchor 0"), e.getMessage());
    }

    @Example
    void shouldRefuseSeedsWithoutAnchorsOrRootsOnTheWire() {
        ByteBuffer noAnchors = ByteBuffer.wrap(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18});
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> EdgeSeeds.read(noAnchors, "Frame"));
        assertTrue(e.getMessage().contains("Frame anchor count 0 out of 1..65535"), e.getMessage());

        ByteBuffer noRoots = ByteBuffer.allocate(1 + 17);
        noRoots.put((byte) 1).putLong(42L).put((byte) 0).rewind();
        e = assertThrows(MalformedFrameException.class, () -> EdgeSeeds.read(noRoots, "Frame"));
        assertTrue(e.getMessage().contains("Frame anchor 0 has root count 0"), e.getMessage());
    }

    /** Seeds as an emit draws them: 1..4 anchors of 1..3 roots each. */
    @Provide
    static Arbitrary<EdgeSeeds> seeds() {
        Arbitrary<long[]> roots = Arbitraries.longs().array(long[].class).ofMinSize(1).ofMaxSize(3);
        return Combinators.combine(Arbitraries.longs().array(long[].class).ofMinSize(1).ofMaxSize(4), roots.list().ofSize(4))
            .as((seeds, rootLists) -> EdgeSeeds.of(seeds, rootLists.subList(0, seeds.length).toArray(long[][]::new)));
    }
}
