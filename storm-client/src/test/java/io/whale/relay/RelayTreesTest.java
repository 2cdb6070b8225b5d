package io.whale.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.apache.storm.generated.NodeInfo;
import org.junit.jupiter.api.Test;

class RelayTreesTest {

    @Test
    void shouldLayOutATreeAsTheSourceReachesItsMembersWithEachOnesChildrenInBrackets() {
        List<NodeInfo> members = List.of(node("s1", 6700), node("s2", 6701), node("s3", 6702), node("s4", 6703));
        int[][] children = {{1, 3}, {2, 4}, {}, {}, {}};

        RelayTrees.Tree tree = new RelayTrees.Tree(7, 0, members, children);

        assertEquals("s1:6700 [s2:6701, s4:6703], s3:6702", tree.layout());
    }

    @Test
    void shouldLayOutAChainAsNestedBrackets() {
        List<NodeInfo> members = List.of(node("a", 1), node("b", 2), node("c", 3));

        assertEquals("a:1 [b:2 [c:3]]", new RelayTrees.Tree(1, 2, members, new int[][] {{1}, {2}, {3}, {}}).layout());
    }

    private static NodeInfo node(String supervisor, long port) {
        return new NodeInfo(supervisor, Set.of(port));
    }
}
