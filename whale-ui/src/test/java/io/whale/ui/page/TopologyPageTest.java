package io.whale.ui.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TopologyPageTest {
    private static final Map<String, Object> TOPOLOGY = Map.ofEntries(Map.entry("id", "rh-1-17"), Map.entry("name", "rh"),
        Map.entry("owner", "root"), Map.entry("status", "ACTIVE"), Map.entry("uptime", "1m 0s"), Map.entry("workersTotal", 2),
        Map.entry("executorsTotal", 5), Map.entry("tasksTotal", 5), Map.entry("windowHint", "All time"),
        Map.entry("topologyStats", List.of()), Map.entry("spouts", List.of()), Map.entry("bolts", List.of()),
        Map.entry("workers", List.of(Map.of("host", "h1", "port", 6700, "uptime", "1m", "executorsTotal", 5,
            "componentNumTasks", Map.of("matcher", 4L)))));

    @Test
    void shouldPostEachActionWithTheSessionsTokenToTheStormUisPathOnlyAfterTheOperatorConfirms() {
        String page = TopologyPage.render(TOPOLOGY, Map.of(), "panel", "tok");

        for (String action : List.of("activate", "deactivate", "rebalance/30", "kill/30")) {
            assertTrue(Pattern.compile("<form class=\"action\" method=\"post\" action=\"/api/v1/topology/rh-1-17/" + action
                + "\" onsubmit=\"return confirm\\(&quot;[^&]+ topology rh[^&]*\\?&quot;\\)\">"
                + "<input type=\"hidden\" name=\"redirect\" value=\"page\"><input type=\"hidden\" name=\"token\" value=\"tok\">")
                .matcher(page).find(), action + " with the session's token in\n" + page);
        }
    }

    @Test
    void shouldStillAskBeforeKillingATopologyWhoseNameBreaksTheLineOrQuotes() {
        Map<String, Object> odd = new java.util.HashMap<>(TOPOLOGY);
        odd.put("name", "rh\n'); x('\"<b>");

        String page = TopologyPage.render(odd, Map.of(), "panel", "tok");

        String confirm = "return confirm(&quot;Kill topology rh\\n&#39;); x(&#39;\\&quot;\\u003cb&gt; (in 30 s)?&quot;)";
        assertTrue(page.contains("onsubmit=\"" + confirm + "\""), page);
        Pattern.compile("onsubmit=\"([^\"]*)\"").matcher(page).results()
            .forEach(handler -> assertEquals(-1, handler.group(1).indexOf('\n'), "a raw line break ends the script's string: " + handler.group()));
    }

    @Test
    void shouldShowEachWorkersPidWhereItsEndpointGaveIt() {
        String page = TopologyPage.render(TOPOLOGY, Map.of("h1:6700", 4242L), "panel", "tok");

        assertTrue(page.contains("<td>h1:6700</td><td class=\"n\">4242</td>"), page);
        assertEquals(-1, page.indexOf("Pids come from"), "no note when the pids are known");
        assertTrue(TopologyPage.render(TOPOLOGY, Map.of(), "panel", "tok").contains("Pids come from the workers' Prometheus endpoints"));
    }

    @Test
    void shouldReloadOnlyThePanelFromTheUiItself() {
        String page = TopologyPage.render(TOPOLOGY, Map.of(), "<h2>Whale</h2>", "tok");

        assertTrue(page.contains("<div id=\"whale-panel\" class=\"panel\"><h2>Whale</h2></div>"), page);
        assertTrue(page.contains("fetch('/whale-panel.html?id=rh-1-17')"), page);
        assertTrue(!page.contains("http://") && !page.contains("https://"), "nothing fetched from elsewhere:\n" + page);
    }

    @Test
    void shouldOfferNoTopologyActionWhenTheyAreDisabled() {
        assertTrue(TopologyPage.render(TOPOLOGY, Map.of(), "panel", "tok").contains("/kill/30"));
        String page = TopologyPage.render(TOPOLOGY, Map.of(), "panel", null);
        assertFalse(page.contains("/kill/") || page.contains("/rebalance/") || page.contains("/activate"), page);
    }
}
