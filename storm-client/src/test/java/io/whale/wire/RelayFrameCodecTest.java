package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class RelayFrameCodecTest {
    private static final byte[] VALUES = {1, 2, 3, 4, 5};

    /** The paper's Fig. 6 shape in miniature: A relays to B (which relays to D) and to C. */
    private static final RelayRoute ROUTE = new RelayRoute(new int[] {10, 11},
        List.of(new RelayRoute(new int[] {20}, List.of(RelayRoute.leaf(40, 41, 42))), RelayRoute.leaf(30, 31)));

    /** The varint header fields at their extremes: a task id's whole range, an incarnation's 61 bits, any seq. */
    @Property
    void shouldCarryEveryHeaderValueThroughItsVarint(@ForAll int sourceTask, @ForAll long incarnation,
                                                     @ForAll int treeId, @ForAll long seq) {
        RelayFrame frame = RelayFrameCodec.decode(RelayFrameCodec.encode(sourceTask, "s", incarnation, treeId, seq,
            RelayRoute.leaf(1), null, VALUES));
        assertEquals(List.of(sourceTask, incarnation, treeId, seq),
            List.of(frame.sourceTask(), frame.incarnation(), frame.treeId(), frame.seq()));
    }

    @Test
    void shouldDecodeTheOwnTasksAndFindEachChildsRoute() {
        RelayFrame frame = RelayFrameCodec.decode(RelayFrameCodec.encode(7, "orders", 1234L, 3, 99L, ROUTE, null, VALUES));
        assertEquals(7, frame.sourceTask());
        assertEquals("orders", frame.stream());
        assertEquals(1234L, frame.incarnation());
        assertEquals(3, frame.treeId());
        assertEquals(99L, frame.seq());
        assertArrayEquals(new int[] {10, 11}, frame.tasks());
        assertNull(frame.seeds());
        assertEquals(8, frame.subtreeTasks());
        assertEquals(List.of(20, 30), frame.children().stream().map(RelayFrame.Child::firstTask).toList());
        assertEquals(List.of(4, 2), frame.children().stream().map(RelayFrame.Child::subtreeTasks).toList());
        assertArrayEquals(VALUES, Arrays.copyOfRange(frame.frame(), frame.valuesOffset(),
            frame.valuesOffset() + frame.valuesLength()));
    }

    @Test
    void shouldForwardEachChildTheFrameTheRootWouldHaveSentIt() {
        byte[] atA = RelayFrameCodec.encode(7, "orders", 1234L, 3, 99L, ROUTE, null, VALUES);
        byte[] atB = RelayFrameCodec.forward(RelayFrameCodec.decode(atA), 0);
        assertArrayEquals(RelayFrameCodec.encode(7, "orders", 1234L, 3, 99L, ROUTE.children().get(0), null, VALUES), atB);
        byte[] atD = RelayFrameCodec.forward(RelayFrameCodec.decode(atB), 0);
        RelayFrame d = RelayFrameCodec.decode(atD);
        assertArrayEquals(new int[] {40, 41, 42}, d.tasks());
        assertTrue(d.children().isEmpty());
        assertEquals(3, d.subtreeTasks());
    }

    @Test
    void shouldForwardAChildAloneTheFrameTheRootWouldHaveSentItWithNoMemberBelow() {
        RelayFrame a = RelayFrameCodec.decode(RelayFrameCodec.encode(7, "orders", 1234L, 3, 99L, ROUTE, null, VALUES));
        byte[] aloneAtB = RelayFrameCodec.forwardAlone(a, a.children().get(0));
        assertArrayEquals(RelayFrameCodec.encode(7, "orders", 1234L, 3, 99L, RelayRoute.leaf(20), null, VALUES), aloneAtB);
        RelayFrame b = RelayFrameCodec.decode(aloneAtB);
        assertArrayEquals(new int[] {20}, b.tasks());
        assertTrue(b.children().isEmpty());
        assertEquals(1, b.subtreeTasks());
    }

    @Test
    void shouldMakeAFramesOwnMemberAloneTheFrameItsSourceWouldHaveSentItWithNoMemberBelow() {
        RelayFrame a = RelayFrameCodec.decode(RelayFrameCodec.encode(7, "orders", 1234L, 3, 99L, ROUTE, null, VALUES));
        assertArrayEquals(RelayFrameCodec.encode(7, "orders", 1234L, 3, 99L, RelayRoute.leaf(10, 11), null, VALUES),
            RelayFrameCodec.alone(a));
    }

    @Test
    void shouldCarryTheSeedsOnceToEveryMemberOfTheRoute() {
        EdgeSeeds ids = EdgeSeeds.of(new long[] {77L}, new long[][] {{5L}});
        byte[] atA = RelayFrameCodec.encode(7, "s", 1L, 0, 1L, ROUTE, ids, VALUES);
        RelayFrame a = RelayFrameCodec.decode(atA);
        assertEquals(ids, a.seeds());
        assertArrayEquals(new int[] {10, 11}, a.tasks());
        RelayFrame b = RelayFrameCodec.decode(RelayFrameCodec.forward(a, 0));
        RelayFrame d = RelayFrameCodec.decode(RelayFrameCodec.forward(b, 0));
        assertEquals(ids, d.seeds());
        assertArrayEquals(new int[] {40, 41, 42}, d.tasks());
        RelayFrame c = RelayFrameCodec.decode(RelayFrameCodec.forward(a, 1));
        assertEquals(ids, c.seeds());
        assertEquals(ids.bytes(), atA.length - RelayFrameCodec.encode(7, "s", 1L, 0, 1L, ROUTE, null, VALUES).length,
            "the seeds once for the whole route");
    }

    @Test
    void shouldDecodeAChainOfAHundredThousandMembersWithoutRecursing() {
        RelayFrame leaf = RelayFrameCodec.decode(RelayFrameCodec.encode(1, "s", 1L, 0, 1L, RelayRoute.leaf(1), null, VALUES));
        int members = 100_000;
        ByteBuffer frame = ByteBuffer.allocate(leaf.routeOffset() + members * 5 + VALUES.length + 4);
        frame.put(leaf.frame(), 0, leaf.routeOffset());
        for (int member = 0; member < members; member++) {
            frame.put((byte) 1);
            FrameFields.putVarInt(frame, FrameFields.zigZag(member + 1));
            frame.put((byte) (member == members - 1 ? 0 : 1));
        }
        frame.put(VALUES).putInt(0);
        byte[] bytes = Arrays.copyOf(frame.array(), frame.position());
        reseal(bytes);
        RelayFrame decoded = RelayFrameCodec.decode(bytes);
        assertEquals(members, decoded.subtreeTasks());
        assertEquals(members - 1, decoded.children().get(0).subtreeTasks());
    }

    @Test
    void shouldRefuseAFrameWhoseRouteOverrunsItsValues() {
        byte[] frame = RelayFrameCodec.encode(7, "s", 1L, 0, 1L, ROUTE, null, VALUES);
        int childCountOfA = RelayFrameCodec.decode(frame).routeOffset() + 1 + 2;
        frame[childCountOfA] = 3;
        reseal(frame);
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> RelayFrameCodec.decode(frame));
        assertTrue(e.getMessage().startsWith("Relay frame"), e.getMessage());
    }

    @Test
    void shouldListEveryTaskBelowTheMemberAndRefuseARouteThatNamesATaskTwice() {
        RelayFrame frame = RelayFrameCodec.decode(RelayFrameCodec.encode(7, "s", 1L, 0, 1L, ROUTE, null, VALUES));
        assertArrayEquals(new int[] {20, 40, 41, 42, 30, 31}, frame.routeTasks());

        RelayRoute twice = new RelayRoute(new int[] {10}, List.of(RelayRoute.leaf(20), RelayRoute.leaf(10)));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> RelayFrameCodec.encode(7, "s", 1L, 0, 1L, twice, null, VALUES));
        assertTrue(refused.getMessage().contains("names destination task 10 twice"), refused.getMessage());

        byte[] forged = RelayFrameCodec.encode(7, "s", 1L, 0, 1L, new RelayRoute(new int[] {10},
            List.of(RelayRoute.leaf(20), RelayRoute.leaf(21))), null, VALUES);
        int lastTask = forged.length - 4 - VALUES.length - 2;
        forged[lastTask] = (byte) FrameFields.zigZag(20);
        reseal(forged);
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> RelayFrameCodec.decode(forged));
        assertTrue(e.getMessage().contains("names destination task 20 twice"), e.getMessage());
    }

    @Test
    void shouldRefuseAGarbledFrameByItsChecksum() {
        byte[] frame = RelayFrameCodec.encode(7, "s", 1L, 0, 1L, ROUTE, null, VALUES);
        frame[frame.length - 6] ^= 0x40;
        MalformedFrameException e = assertThrows(MalformedFrameException.class, () -> RelayFrameCodec.decode(frame));
        assertTrue(e.getMessage().contains("CRC32C"), e.getMessage());
    }

    @Test
    void shouldRefuseABatchTupleFrameAndAnotherVersion() {
        byte[] frame = RelayFrameCodec.encode(7, "s", 1L, 0, 1L, ROUTE, null, VALUES);
        frame[1] = 1;
        reseal(frame);
        assertTrue(assertThrows(MalformedFrameException.class, () -> RelayFrameCodec.decode(frame)).getMessage()
            .startsWith("unsupported Relay frame version 1"));
        frame[0] = (byte) 0xB7;
        assertThrows(MalformedFrameException.class, () -> RelayFrameCodec.decode(frame));
    }

    @Property(tries = 200)
    void everyForwardIsTheRootsOwnFrameForThatSubtree(@ForAll("routes") RelayRoute route, @ForAll boolean anchored) {
        EdgeSeeds ids = anchored ? EdgeSeeds.of(new long[] {route.tasks()[0]}, new long[][] {{42L, 43L}}) : null;
        byte[] frame = RelayFrameCodec.encode(3, "stream", 42L, 1, 7L, route, ids, VALUES);
        List<Integer> delivered = new ArrayList<>();
        deliverAll(frame, route, ids, delivered);
        assertEquals(route.subtreeTasks(), delivered.size());
        assertEquals(allTasks(route), delivered);
    }

    @Property(tries = 200)
    void aParentSendingAroundAChildSendsItsChildrenTheirOwnFrames(@ForAll("routes") RelayRoute route, @ForAll boolean anchored) {
        EdgeSeeds ids = anchored ? EdgeSeeds.of(new long[] {route.tasks()[0]}, new long[][] {{42L, 43L}}) : null;
        RelayFrame frame = RelayFrameCodec.decode(RelayFrameCodec.encode(3, "stream", 42L, 1, 7L, route, ids, VALUES));
        for (int i = 0; i < route.children().size(); i++) {
            List<RelayRoute> grandchildren = route.children().get(i).children();
            List<RelayFrame.Child> around = RelayFrameCodec.childrenOf(frame, frame.children().get(i));
            assertEquals(grandchildren.size(), around.size());
            for (int g = 0; g < around.size(); g++) {
                assertArrayEquals(RelayFrameCodec.encode(3, "stream", 42L, 1, 7L, grandchildren.get(g), ids, VALUES),
                    RelayFrameCodec.forward(frame, around.get(g)));
            }
        }
    }

    private static void deliverAll(byte[] bytes, RelayRoute route, EdgeSeeds ids, List<Integer> out) {
        RelayFrame frame = RelayFrameCodec.decode(bytes);
        assertArrayEquals(route.tasks(), frame.tasks());
        assertEquals(ids, frame.seeds());
        assertEquals(route.subtreeTasks(), frame.subtreeTasks());
        for (int task : frame.tasks()) {
            out.add(task);
        }
        for (int i = 0; i < route.children().size(); i++) {
            RelayRoute child = route.children().get(i);
            byte[] forwarded = RelayFrameCodec.forward(frame, i);
            assertArrayEquals(RelayFrameCodec.encode(3, "stream", 42L, 1, 7L, child, ids, VALUES), forwarded);
            deliverAll(forwarded, child, ids, out);
        }
    }

    private static List<Integer> allTasks(RelayRoute route) {
        List<Integer> tasks = new ArrayList<>();
        for (int task : route.tasks()) {
            tasks.add(task);
        }
        route.children().forEach(child -> tasks.addAll(allTasks(child)));
        return tasks;
    }

    @Provide
    Arbitrary<RelayRoute> routes() {
        return Arbitraries.integers().between(1, 40).flatMap(members -> Arbitraries.randoms().map(random -> {
            int[][] children = randomTree(members, random);
            List<int[]> tasks = new ArrayList<>();
            int next = 1;
            for (int m = 0; m < members; m++) {
                int[] own = new int[1 + random.nextInt(4)];
                for (int i = 0; i < own.length; i++) {
                    own[i] = next++ + 1_000 * random.nextInt(300); // spread out, and each task once (next < 1 000)
                }
                tasks.add(own);
            }
            return RelayRoute.subtree(1, children, tasks);
        }));
    }

    /** A random tree over nodes 1..members under node 1 (the source, node 0, has node 1 as its only child). */
    private static int[][] randomTree(int members, java.util.Random random) {
        List<List<Integer>> kids = new ArrayList<>();
        for (int node = 0; node <= members; node++) {
            kids.add(new ArrayList<>());
        }
        kids.get(0).add(1);
        for (int node = 2; node <= members; node++) {
            kids.get(1 + random.nextInt(node - 1)).add(node);
        }
        return kids.stream().map(k -> k.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
    }

    private static void reseal(byte[] frame) {
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, frame.length - 4);
        ByteBuffer.wrap(frame).putInt(frame.length - 4, (int) crc.getValue());
    }
}
