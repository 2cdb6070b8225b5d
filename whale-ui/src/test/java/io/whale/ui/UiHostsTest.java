package io.whale.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UiHostsTest {
    private final UiHosts hosts = UiHosts.of(Map.of("ui.host", "ui-node.example", UiHosts.KEY, List.of("Storm-UI.corp.example.")), "node7");

    @Test
    void shouldAnswerToAddressesAndItsOwnNames() {
        for (String host : List.of("10.0.0.5:8080", "127.0.0.1", "[::1]:8080", "localhost:8080", "NODE7", "ui-node.example:8080",
            "storm-ui.corp.example", "storm-ui.corp.example.:80")) {
            assertEquals(Optional.empty(), hosts.refusal(host), host);
        }
        assertEquals(Optional.empty(), hosts.refusal(null), "a client naming no host is no browser");
    }

    @Test
    void shouldRefuseANameAnotherSiteMadeLeadHereNamingTheKeyThatAddsOne() {
        Optional<String> refusal = hosts.refusal("rebound.evil.example:8080");

        assertTrue(refusal.orElseThrow().startsWith("this UI is not reached as 'rebound.evil.example' (the request's Host)"), refusal.get());
        assertTrue(refusal.get().contains("add it to whale.ui.hosts in storm.yaml"), refusal.get());
        assertTrue(hosts.refusal("node7.evil.example").isPresent(), "a name is matched whole");
        assertTrue(hosts.refusal("10.0.0.5.evil.example").isPresent(), "an address is an address only whole");
    }

    @Test
    void shouldRefuseANamesSettingThatIsNotAListOfHostNamesNamingIt() {
        for (Object bad : List.of(List.of("ui.example:8080"), List.of(""), 8080, List.of(3))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UiHosts.of(Map.of(UiHosts.KEY, bad), "node7"));
            assertTrue(e.getMessage().startsWith("whale.ui.hosts must be a list of host names (without port), got "), e.getMessage());
        }
        assertEquals(Optional.empty(), UiHosts.of(Map.of(UiHosts.KEY, "one.example"), "node7").refusal("one.example"), "one name alone");
    }
}
