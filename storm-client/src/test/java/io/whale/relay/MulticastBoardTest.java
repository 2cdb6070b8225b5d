package io.whale.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.multicast.MulticastTree;
import io.whale.multicast.export.LiveStatistics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A board as the worker writes it and as whale multicast and whale ui read it: one class, both ways. */
class MulticastBoardTest {
    private static final MulticastTree TREE = MulticastTree.fromChildren(new int[][] {{1, 2}, {3}, {}, {}});
    private static final List<String> MEMBERS = List.of("10.0.0.11:6701", "10.0.0.12:6702", "10.0.0.13:6703");

    private static MulticastBoard readBack(MulticastBoard board) {
        return MulticastBoard.parse("sup-0:6700", board.toJson().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldReadBackWhatItWroteForAFixedAndALiveShape() {
        LiveStatistics figures = new LiveStatistics(5L, 2, 1_200.5, 3_100.0, 17, 1000, 4.25, 3, 9_000.0, 12L);
        MulticastBoard board = new MulticastBoard("10.0.0.10:6700", "nonblocking, d* live (Q 1000)", 1234L, List.of(
            new MulticastBoard.Source(7, 42, 1, MEMBERS, TREE, figures),
            new MulticastBoard.Source(3, -5, 0, MEMBERS, TREE, null)));

        assertEquals(board, readBack(board));
    }

    @Test
    void shouldWriteUnmeasuredFiguresAsNullAndReadThemBackAsNaN() {
        LiveStatistics unmeasured = new LiveStatistics(5L, 2, Double.NaN, Double.NaN, 0, 1000, Double.POSITIVE_INFINITY, 2,
            Double.NaN, 0L);
        MulticastBoard board = new MulticastBoard("w:1", "live", 1L, List.of(new MulticastBoard.Source(7, 42, 0, MEMBERS, TREE,
            unmeasured)));

        assertTrue(board.toJson().contains("\"emitNanosPerReplica\":null"), "JSON has no NaN: " + board.toJson());
        LiveStatistics read = readBack(board).trees().get(0).statistics();
        assertTrue(Double.isNaN(read.emitNanosPerReplica()));
        assertTrue(Double.isNaN(read.modelMeanQueueLength()), "an overloaded model's infinity is not a figure either");
    }

    @Test
    void shouldNameTheWorkerWhoseBoardDoesNotRead() {
        for (String json : List.of("{not json", "{\"worker\":\"w:1\",\"trees\":[{\"sourceTask\":\"seven\"}]}")) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MulticastBoard.parse("sup-9:6700", json.getBytes(StandardCharsets.UTF_8)));
            assertTrue(e.getMessage().contains("sup-9:6700"), e.getMessage());
        }
    }
}
