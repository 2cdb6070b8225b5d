package io.whale.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.whale.ui.source.UiError;
import jakarta.servlet.http.HttpServletRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.storm.security.auth.ReqContext;
import org.apache.storm.security.auth.authorizer.SimpleACLAuthorizer;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Who a request comes from and what Nimbus's authorizer lets them do, decided as Storm's UI decides it. */
class UiAccessTest {
    private static final Map<String, Object> ALICES_TOPOLOGY = Map.of("topology.submitter.user", "alice", "topology.users", List.of("alice", "bob"));
    private final AtomicInteger confsAsked = new AtomicInteger();
    private final Function<String, Map<String, Object>> topologyConf = id -> {
        confsAsked.incrementAndGet();
        return ALICES_TOPOLOGY;
    };

    @AfterEach
    void forgetTheRequest() {
        ReqContext.reset();
    }

    @Test
    void shouldNameStormsOperationForEachPathAsStormsUiDoes() {
        assertEquals(Optional.of(new UiAccess.Operation("getClusterInfo", null)), UiServlet.operation("GET", "/", null));
        assertEquals(Optional.of(new UiAccess.Operation("getClusterInfo", null)), UiServlet.operation("GET", "/metrics", null));
        assertEquals(Optional.of(new UiAccess.Operation("getClusterInfo", null)), UiServlet.operation("GET", "/api/v1/whale/prometheus-targets", null));
        assertEquals(Optional.of(new UiAccess.Operation("getTopology", "t-1-1")), UiServlet.operation("GET", "/topology.html", "t-1-1"));
        assertEquals(Optional.of(new UiAccess.Operation("getTopology", "t-1-1")), UiServlet.operation("GET", "/api/v1/topology/t-1-1", null));
        assertEquals(Optional.of(new UiAccess.Operation("getTopology", "t-1-1")), UiServlet.operation("GET", "/api/v1/whale/topology/t-1-1/trees.svg", null));
        assertEquals(Optional.of(new UiAccess.Operation("killTopology", "t-1-1")), UiServlet.operation("POST", "/api/v1/topology/t-1-1/kill/0", null));
        assertEquals(Optional.of(new UiAccess.Operation("rebalance", "t-1-1")), UiServlet.operation("POST", "/api/v1/topology/t-1-1/rebalance", null));
        assertEquals(Optional.of(new UiAccess.Operation("deactivate", "t-1-1")), UiServlet.operation("POST", "/api/v1/topology/t-1-1/deactivate", null));
        assertEquals(Optional.empty(), UiServlet.operation("GET", "/topology.html", null), "no id: the page says so, Nimbus is not asked");
        assertEquals(Optional.empty(), UiServlet.operation("POST", "/api/v1/cluster/summary", null));
    }

    @Test
    void shouldLetEveryoneInAndNotReadTheTopologyWhenNoAuthorizerIsConfigured() {
        UiAccess open = UiAccess.of(new HashMap<>(Utils.readDefaultConfig()));

        assertNull(open.admit(request(null, null), kill(), topologyConf), "nobody logged in: the UI asks as itself");
        assertEquals("carol", open.admit(request("carol", null), kill(), topologyConf));
        assertEquals(0, confsAsked.get());
    }

    @Test
    void shouldRefuseAnUnauthenticatedUserWhereAnAuthorizerDecides() {
        UiError refused = assertThrows(UiError.class, () -> secured().admit(request(null, null), kill(), topologyConf));

        assertEquals(403, refused.status());
        assertTrue(refused.getMessage().startsWith("killTopology is refused to a user nobody authenticated"), refused.getMessage());
    }

    @Test
    void shouldLetOnlyTheTopologysUsersAndTheAdminsActOnIt() {
        UiAccess access = secured();

        UiError refused = assertThrows(UiError.class, () -> access.admit(request("carol", null), kill(), topologyConf));
        assertEquals(403, refused.status());
        assertEquals("'carol' is not allowed killTopology on topology t-1-1 (nimbus.authorizer)", refused.getMessage());
        assertEquals("bob", access.admit(request("bob", null), kill(), topologyConf), "in topology.users (Nimbus puts the submitter there too)");
        assertEquals("admin", access.admit(request("admin", null), kill(), topologyConf), "in nimbus.admins");
        assertEquals("carol", access.admit(request("carol", null), UiServlet.operation("GET", "/", null), topologyConf),
            "anyone authenticated reads the cluster (nimbus.users empty)");
    }

    @Test
    void shouldRefuseActingAsAnotherUserUnlessTheImpersonationAuthorizerAllowsIt() {
        Map<String, Object> conf = securedConf();
        conf.remove("nimbus.impersonation.authorizer");
        UiError refused = assertThrows(UiError.class, () -> UiAccess.of(conf).admit(request("carol", "alice"), kill(), topologyConf));

        assertEquals(403, refused.status());
        assertEquals("'carol' may not act as 'alice' (doAsUser): no nimbus.impersonation.authorizer is configured to allow it",
            refused.getMessage());
        UiError stillRefused = assertThrows(UiError.class, () -> secured().admit(request("carol", "alice"), kill(), topologyConf));
        assertTrue(stillRefused.getMessage().startsWith("'carol' may not act as 'alice' (doAsUser), says"), stillRefused.getMessage());
    }

    @Test
    void shouldNameTheKeyOfAnAuthorizerThatCannotBeLoaded() {
        Map<String, Object> conf = securedConf();
        conf.put("nimbus.authorizer", "org.example.NoSuchAuthorizer");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UiAccess.of(conf));

        assertTrue(e.getMessage().startsWith("nimbus.authorizer: org.example.NoSuchAuthorizer could not be loaded"), e.getMessage());
    }

    private static Optional<UiAccess.Operation> kill() {
        return UiServlet.operation("POST", "/api/v1/topology/t-1-1/kill/0", null);
    }

    private static UiAccess secured() {
        return UiAccess.of(securedConf());
    }

    private static Map<String, Object> securedConf() {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("nimbus.authorizer", SimpleACLAuthorizer.class.getName());
        conf.put("nimbus.admins", List.of("admin"));
        conf.put("nimbus.impersonation.authorizer", "org.apache.storm.security.auth.authorizer.ImpersonationAuthorizer");
        return conf;
    }

    /** A request whose login filter authenticated {@code user} (null: nobody), asking to act as {@code doAs} (null: itself). */
    private static HttpServletRequest request(String user, String doAs) {
        HttpServletRequest request = mock(HttpServletRequest.class);
        when(request.getUserPrincipal()).thenReturn(user == null ? null : () -> user);
        when(request.getHeader("doAsUser")).thenReturn(doAs);
        when(request.getRemoteAddr()).thenReturn("127.0.0.1");
        return request;
    }
}
