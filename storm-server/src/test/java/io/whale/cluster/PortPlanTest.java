package io.whale.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortPlanTest {

    @Test
    void defaultPlanAvoidsStormsDefaultPortsAndNeverRepeatsAPort() {
        PortPlan plan = new PortPlan(PortPlan.DEFAULT_BASE, PortPlan.MAX_SUPERVISORS, 10);
        Set<Integer> stormDefaults = Set.of(2181, 6627, 6628, 6700, 6701, 6702, 6703, 8080, 8000, 3772, 3773, 3774, 6699);
        int expected = 3 + PortPlan.MAX_SUPERVISORS * (1 + 10);
        assertEquals(expected, plan.all().size(), "every port is distinct");
        assertTrue(plan.all().keySet().stream().noneMatch(stormDefaults::contains));
    }

    @Test
    void supervisorsGetTheirOwnSlots() {
        PortPlan plan = new PortPlan(20000, 2, 3);
        assertEquals(List.of(20110, 20111, 20112), plan.slots(1));
        assertEquals(List.of(20120, 20121, 20122), plan.slots(2));
        assertEquals(20011, plan.supervisorThrift(1));
    }

    @Test
    void uiAndPrometheusPortsStayClearOfTheDaemonsAndSlots() {
        PortPlan plan = new PortPlan(20000, PortPlan.MAX_SUPERVISORS, 10);
        assertEquals(20002, plan.ui());
        assertEquals("ui.port", plan.all().get(20002));
        assertEquals("20050-20099", plan.prometheusPorts());
        assertTrue(plan.all().keySet().stream().noneMatch(p -> p >= 20050 && p <= 20099), "no daemon or slot in the Prometheus range");
    }

    @Test
    void rejectsImpossiblePlans() {
        assertThrows(IllegalArgumentException.class, () -> new PortPlan(80, 2, 4));
        assertThrows(IllegalArgumentException.class, () -> new PortPlan(16000, 0, 4));
        assertThrows(IllegalArgumentException.class, () -> new PortPlan(16000, 10, 4));
        assertThrows(IllegalArgumentException.class, () -> new PortPlan(16000, 2, 0));
    }

    @Test
    void takenPortIsNamedWithItsRole() throws Exception {
        try (ServerSocket holder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = holder.getLocalPort();
            assertFalse(PortPlan.isFree(port));
            // Lay the plan out so the held port is Nimbus's.
            PortPlan plan = new PortPlan(port - 1, 1, 1);
            LocalClusterException e = assertThrows(LocalClusterException.class, plan::checkFree);
            assertTrue(e.getMessage().contains("port " + port + " (nimbus.thrift.port) is taken"), e.getMessage());
        }
    }
}
