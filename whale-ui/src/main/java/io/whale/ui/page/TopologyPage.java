package io.whale.ui.page;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A topology's page: its summary and action buttons (each asks for confirmation), the topology's figures per window,
 * its spouts and bolts over the chosen window, its workers, and the Whale panel (reloaded, see
 * {@link WhalePanelFragment#embed}).
 */
public final class TopologyPage {
    private TopologyPage() {
    }

    /**
     * {@code topology}: the Storm UI JSON of the topology; {@code pids}: worker host:port to pid, where known;
     * {@code actionToken}: the session's token each action form carries, null where the page offers no topology action
     * ({@code ui.actions.enabled: false}).
     */
    @SuppressWarnings("unchecked")
    public static String render(Map<String, Object> topology, Map<String, Long> pids, String panel, String actionToken) {
        String id = String.valueOf(topology.get("id"));
        String name = String.valueOf(topology.get("name"));
        StringBuilder body = new StringBuilder();
        body.append(Html.table("summary", List.of("Name", "Id", "Owner", "Status", "Uptime", "Workers", "Executors", "Tasks"),
            List.of(List.of(Html.escape(name), Html.escape(id), Html.escape(topology.get("owner")), Html.escape(topology.get("status")),
                Html.escape(topology.get("uptime")), Html.number(topology.get("workersTotal")), Html.number(topology.get("executorsTotal")),
                Html.number(topology.get("tasksTotal"))))));
        body.append("<div class=\"actions\">");
        if (actionToken != null) {
            body.append(action(id, name, "activate", "Activate", "", actionToken))
                .append(action(id, name, "deactivate", "Deactivate", "", actionToken))
                .append(action(id, name, "rebalance", "Rebalance", "/30", actionToken))
                .append(action(id, name, "kill", "Kill", "/30", actionToken));
        }
        body.append("<a href=\"/whale.html?id=").append(Html.escape(id)).append("\">Whale panel alone</a></div>");

        List<List<String>> stats = new ArrayList<>();
        for (Map<String, Object> w : (List<Map<String, Object>>) topology.get("topologyStats")) {
            stats.add(List.of("<a href=\"/topology.html?id=" + Html.escape(id) + "&window=" + Html.escape(w.get("window")) + "\">"
                    + Html.escape(w.get("windowPretty")) + "</a>", Html.number(w.get("emitted")), Html.number(w.get("transferred")),
                Html.number(w.get("completeLatency")), Html.number(w.get("acked")), Html.number(w.get("failed"))));
        }
        body.append("<h2>Topology stats</h2>").append(Html.table("topology-stats",
            List.of("Window", "Emitted", "Transferred", "Complete latency (ms)", "Acked", "Failed"), stats));

        String window = "Over " + topology.get("windowHint");
        List<List<String>> spouts = new ArrayList<>();
        for (Map<String, Object> s : (List<Map<String, Object>>) topology.get("spouts")) {
            spouts.add(List.of(Html.escape(s.get("spoutId")), Html.number(s.get("executors")), Html.number(s.get("tasks")),
                Html.number(s.get("emitted")), Html.number(s.get("transferred")), Html.number(s.get("completeLatency")),
                Html.number(s.get("acked")), Html.number(s.get("failed")), Html.escape(s.get("lastError"))));
        }
        body.append("<h2>Spouts (").append(Html.escape(window)).append(")</h2>").append(Html.table("spouts",
            List.of("Id", "Executors", "Tasks", "Emitted", "Transferred", "Complete latency (ms)", "Acked", "Failed", "Last error"), spouts));
        List<List<String>> bolts = new ArrayList<>();
        for (Map<String, Object> b : (List<Map<String, Object>>) topology.get("bolts")) {
            bolts.add(List.of(Html.escape(b.get("boltId")), Html.number(b.get("executors")), Html.number(b.get("tasks")),
                Html.number(b.get("emitted")), Html.number(b.get("transferred")), Html.number(b.get("capacity")),
                Html.number(b.get("executeLatency")), Html.number(b.get("executed")), Html.number(b.get("processLatency")),
                Html.number(b.get("acked")), Html.number(b.get("failed")), Html.escape(b.get("lastError"))));
        }
        body.append("<h2>Bolts (").append(Html.escape(window)).append(")</h2>").append(Html.table("bolts",
            List.of("Id", "Executors", "Tasks", "Emitted", "Transferred", "Capacity", "Execute latency (ms)", "Executed",
                "Process latency (ms)", "Acked", "Failed", "Last error"), bolts));

        List<List<String>> workers = new ArrayList<>();
        for (Map<String, Object> w : (List<Map<String, Object>>) topology.get("workers")) {
            String worker = w.get("host") + ":" + w.get("port");
            workers.add(List.of(Html.escape(worker), Html.number(Optional.ofNullable(pids.get(worker)).map(String::valueOf).orElse("–")),
                Html.escape(w.get("uptime")), Html.number(w.get("executorsTotal")), Html.escape(w.get("componentNumTasks"))));
        }
        body.append("<h2>Workers</h2>").append(Html.table("workers",
            List.of("Worker (host:port)", "Pid", "Uptime", "Executors", "Tasks per component"), workers));
        if (pids.isEmpty()) {
            body.append("<p class=\"off\">Pids come from the workers' Prometheus endpoints, which this topology does not run.</p>");
        }

        body.append(WhalePanelFragment.embed(id, panel));
        return Html.page("Topology " + name, body.toString());
    }

    /** A button that posts to Storm UI's path for the action, with the session's token, after the browser asked the operator to confirm. */
    private static String action(String id, String name, String verb, String label, String waitSuffix, String token) {
        String question = label + " topology " + name + (waitSuffix.isEmpty() ? "" : " (in " + waitSuffix.substring(1) + " s)") + "?";
        return "<form class=\"action\" method=\"post\" action=\"/api/v1/topology/" + Html.escape(id) + "/" + verb + waitSuffix
            + "\" onsubmit=\"return confirm(" + Html.escape(Html.jsString(question)) + ")\">"
            + "<input type=\"hidden\" name=\"redirect\" value=\"page\"><input type=\"hidden\" name=\"token\" value=\""
            + Html.escape(token) + "\"><button type=\"submit\" name=\"" + verb + "\">" + label
            + "</button></form>";
    }
}
