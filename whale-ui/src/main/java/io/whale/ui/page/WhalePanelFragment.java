package io.whale.ui.page;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Whale panel of a topology as an HTML fragment (the topology page embeds it and reloads it): the switches, the
 * counters summed over the workers' Prometheus endpoints (or why there are none), and the broadcasts' paths as SVG.
 */
public final class WhalePanelFragment {
    static final int REFRESH_MS = 3_000;

    private WhalePanelFragment() {
    }

    /**
     * The panel in a page: a box the page's one script refills every {@value #REFRESH_MS} ms from
     * {@code /whale-panel.html} (no script from anywhere else).
     */
    public static String embed(String topologyId, String fragment) {
        return "<div id=\"whale-panel\" class=\"panel\">" + fragment + "</div>"
            + "<script>setInterval(function(){fetch('/whale-panel.html?id=" + URLEncoder.encode(topologyId, StandardCharsets.UTF_8)
            + "').then(function(r){return r.text();}).then(function(t){document.getElementById('whale-panel').innerHTML=t;})"
            + ".catch(function(){});}," + REFRESH_MS + ");</script>";
    }

    /** {@code /whale.html?id=…}: the panel alone, on a page of its own. */
    public static String page(String topologyName, String topologyId, String fragment) {
        return Html.page("Whale panel of " + topologyName, "<p><a href=\"/topology.html?id=" + Html.escape(topologyId)
            + "\">Topology " + Html.escape(topologyName) + "</a></p>" + embed(topologyId, fragment));
    }

    /** {@code panel}: the JSON of {@code /api/v1/whale/topology/ID}; {@code svg}: its trees drawn. */
    @SuppressWarnings("unchecked")
    public static String render(Map<String, Object> panel, String svg) {
        Map<String, Object> switches = (Map<String, Object>) panel.get("switches");
        StringBuilder out = new StringBuilder("<h2>Whale</h2>");
        out.append(Html.table("switches", List.of("Worker-oriented communication", "Transport", "Multicast structure",
                "Max out-degree", "Prometheus endpoints"),
            List.of(List.of(onOff(switches.get("woc")), Html.escape(switches.get("transport")), Html.escape(switches.get("multicastStructure")),
                Html.escape(switches.get("maxOutDegree")), onOff(switches.get("prometheus"))))));

        for (String problem : (List<String>) panel.get("problems")) {
            out.append(Html.error(problem));
        }
        for (String note : (List<String>) panel.get("notes")) {
            out.append("<p class=\"note\">").append(Html.escape(note)).append("</p>");
        }
        Map<String, Object> counters = (Map<String, Object>) panel.get("counters");
        if (counters != null) {
            Map<String, Object> woc = (Map<String, Object>) counters.get("woc");
            out.append("<h2>WOC counters (").append(Html.escape(panel.get("workersScraped"))).append(" worker(s))</h2>")
                .append(Html.table("woc-counters", List.of("Frames sent", "Frame destinations", "Destinations per frame", "Emits",
                        "Serializations", "Serializations per emit", "Frames received", "Malformed frames"),
                    List.of(List.of(Html.number(woc.get("frames_sent")), Html.number(woc.get("frame_destinations")),
                        Html.number(orDash(woc.get("destinations_per_frame"))), Html.number(woc.get("emits")),
                        Html.number(woc.get("serializations")), Html.number(orDash(woc.get("serializations_per_emit"))),
                        Html.number(woc.get("frames_received")), Html.number(woc.get("frames_malformed"))))));
            Map<String, Object> acks = (Map<String, Object>) counters.get("acks");
            out.append("<h2>Ack combining</h2>")
                .append(Html.table("ack-counters", List.of("Acks from tasks", "Acks sent", "Sent as their last task acked",
                        "Acks per ack sent", "Mean wait (ms)", "Lost at a worker's stop"),
                    List.of(List.of(Html.number(acks.get("acks_offered")), Html.number(acks.get("acks_sent")),
                        Html.number(acks.get("acks_completed")),
                        Html.number(orDash(acks.get("acks_per_ack_sent"))), Html.number(orDash(acks.get("mean_wait_ms"))),
                        Html.number(acks.get("acks_dropped"))))));
            out.append(counterTable("Bytes sent to each destination worker", "woc-bytes", (Map<String, Object>) woc.get("bytes_sent_to")));
            out.append(counterTable("RDMA counters", "rdma-counters", (Map<String, Object>) counters.get("rdma")));
            out.append(counterTable("Relay counters", "relay-counters", (Map<String, Object>) counters.get("relay")));
        }
        out.append("<h2>Broadcast paths (").append(Html.escape(panel.get("paths"))).append(")</h2>");
        return out.append("<div class=\"tree-svg\">").append(svg).append("</div>").toString();
    }

    private static String counterTable(String title, String cssClass, Map<String, Object> counters) {
        if (counters.isEmpty()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        counters.forEach((name, value) -> rows.add(List.of(Html.escape(name), Html.number(value))));
        return "<h2>" + Html.escape(title) + "</h2>" + Html.table(cssClass, List.of("Counter", "Value"), rows);
    }

    private static String onOff(Object on) {
        return Boolean.TRUE.equals(on) ? "<span class=\"on\">on</span>" : "<span class=\"off\">off</span>";
    }

    private static Object orDash(Object value) {
        return value == null ? "–" : value;
    }
}
