package io.whale.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class RelayRouteTest {
    @Test
    void shouldCountTheMembersOnItsLongestPathDownAsItsDepth() {
        assertEquals(1, RelayRoute.leaf(1, 2).depth());
        RelayRoute route = new RelayRoute(new int[] {1}, List.of(RelayRoute.leaf(2),
            new RelayRoute(new int[] {3}, List.of(RelayRoute.leaf(4))), RelayRoute.leaf(5)));
        assertEquals(3, route.depth());
        assertEquals(5, route.members());
    }
}
