package io.whale.relay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.mockingDetails;
import static org.mockito.Mockito.verify;

import io.whale.multicast.BinomialTreeBuilder;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.export.LiveStatistics;
import io.whale.multicast.monitor.NanoClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.cluster.IStateStorage;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.metrics2.StormMetricRegistry;
import org.junit.jupiter.api.Test;

class TreeBoardTest {
    private static final List<NodeInfo> MEMBERS = List.of(new NodeInfo("sup-a", Set.of(6701L)),
        new NodeInfo("sup-b", Set.of(6702L)), new NodeInfo("sup-c", Set.of(6703L)));
    private static final int[][] CHILDREN = {{1, 2}, {3}, {}, {}};
    private static final Map<String, String> HOSTS = Map.of("sup-a", "10.0.0.11", "sup-b", "10.0.0.12", "sup-c", "10.0.0.13");

    @Test
    void shouldShowEachSourcesLatestTreeWithItsMembersAsHostAndPort() {
        TreeBoard board = new TreeBoard(TreeShaper.fixed(new BinomialTreeBuilder()));
        board.laidOut(7, new RelayTrees.Tree(42, 0, MEMBERS, CHILDREN));
        board.laidOut(7, new RelayTrees.Tree(42, 1, MEMBERS, new int[][] {{1}, {2}, {3}, {}}));
        board.laidOut(3, new RelayTrees.Tree(42, 0, MEMBERS, CHILDREN));

        MulticastBoard snapshot = board.snapshot("10.0.0.10:6700", 1234L, HOSTS::get);

        assertEquals("10.0.0.10:6700", snapshot.worker());
        assertEquals("binomial", snapshot.shape());
        assertEquals(2, snapshot.trees().size(), "one entry per (source task, tree): the latest layout");
        MulticastBoard.Source ofSeven = snapshot.trees().get(1);
        assertEquals(7, ofSeven.sourceTask());
        assertEquals(1, ofSeven.epoch());
        assertEquals(List.of("10.0.0.11:6701", "10.0.0.12:6702", "10.0.0.13:6703"), ofSeven.members());
        assertEquals(MulticastTree.fromChildren(new int[][] {{1}, {2}, {3}, {}}), ofSeven.tree());
        assertNull(ofSeven.statistics(), "a fixed shape has no controller figures");
    }

    @Test
    void shouldShowTheControllersFiguresOfALiveShape() {
        TreeShaper live = TreeShaper.live(new ControllerSettings(1000, 500, 0.5, 0.5, 10, 0.8, 0), () -> 17,
            NanoClock.system(), new StormMetricRegistry());
        TreeBoard board = new TreeBoard(live);
        board.laidOut(7, new RelayTrees.Tree(42, 0, MEMBERS, CHILDREN));

        LiveStatistics statistics = board.snapshot("w:1", 1L, HOSTS::get).trees().get(0).statistics();

        assertEquals(1000, statistics.queueCapacity());
        assertTrue(Double.isNaN(statistics.emitNanosPerReplica()), "t_e before the first emit is not measured");
    }

    @Test
    void shouldWriteTheBoardToTheWorkersEphemeralNodeAndRemoveItWhenClosed() {
        IStateStorage storage = mock(IStateStorage.class);
        TreeBoard board = new TreeBoard(TreeShaper.fixed(new BinomialTreeBuilder()));
        board.laidOut(7, new RelayTrees.Tree(42, 0, MEMBERS, CHILDREN));
        String path = "/whale-multicast/topo-1-2/sup-a:6701";
        try {
            board.start(storage, null, "topo-1-2", "sup-a", 6701, HOSTS::get);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> verify(storage, atLeastOnce())
                .set_ephemeral_node(eq(path), any(byte[].class), eq(null)));
        } finally {
            board.close();
        }

        verify(storage).delete_node(path);
        byte[] written = (byte[]) mockingDetails(storage).getInvocations().stream()
            .filter(i -> i.getMethod().getName().equals("set_ephemeral_node")).findFirst().orElseThrow().getArgument(1);
        assertTrue(new String(written, StandardCharsets.UTF_8).contains("\"worker\":\"10.0.0.11:6701\""));
        // the executor has terminated once close() returns; its thread is then leaving run(), not yet dead
        await("the publishing thread ended").atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet()
            .stream().noneMatch(t -> t.getName().equals("whale-tree-board") && t.isAlive()));
    }
}
