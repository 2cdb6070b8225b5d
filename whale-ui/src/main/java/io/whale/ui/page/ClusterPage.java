package io.whale.ui.page;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The cluster page: Nimbus, the supervisors and the topologies, from the Storm UI JSON documents. */
public final class ClusterPage {
    private ClusterPage() {
    }

    @SuppressWarnings("unchecked")
    public static String render(Map<String, Object> cluster, Map<String, Object> nimbuses, Map<String, Object> supervisors,
                                Map<String, Object> topologies) {
        StringBuilder body = new StringBuilder();
        body.append("<h2>Cluster summary</h2>").append(Html.table("cluster",
            List.of("Version", "Supervisors", "Used slots", "Free slots", "Total slots", "Executors", "Tasks"),
            List.of(List.of(Html.escape(cluster.get("stormVersion")), Html.number(cluster.get("supervisors")),
                Html.number(cluster.get("slotsUsed")), Html.number(cluster.get("slotsFree")), Html.number(cluster.get("slotsTotal")),
                Html.number(cluster.get("executorsTotal")), Html.number(cluster.get("tasksTotal"))))));

        List<List<String>> nimbusRows = new ArrayList<>();
        for (Map<String, Object> n : (List<Map<String, Object>>) nimbuses.get("nimbuses")) {
            nimbusRows.add(List.of(Html.escape(n.get("host")), Html.number(n.get("port")), Html.escape(n.get("status")),
                Html.escape(n.get("version")), Html.escape(n.get("nimbusUpTime"))));
        }
        body.append("<h2>Nimbus</h2>").append(Html.table("nimbus", List.of("Host", "Port", "Status", "Version", "Uptime"), nimbusRows));

        List<List<String>> topologyRows = new ArrayList<>();
        for (Map<String, Object> t : (List<Map<String, Object>>) topologies.get("topologies")) {
            topologyRows.add(List.of("<a href=\"/topology.html?id=" + Html.escape(t.get("id")) + "\">" + Html.escape(t.get("name")) + "</a>",
                Html.escape(t.get("id")), Html.escape(t.get("status")), Html.escape(t.get("uptime")), Html.number(t.get("workersTotal")),
                Html.number(t.get("executorsTotal")), Html.number(t.get("tasksTotal"))));
        }
        body.append("<h2>Topologies</h2>");
        body.append(topologyRows.isEmpty() ? "<p>No topology is running.</p>" : Html.table("topologies",
            List.of("Name", "Id", "Status", "Uptime", "Workers", "Executors", "Tasks"), topologyRows));

        List<List<String>> supervisorRows = new ArrayList<>();
        for (Map<String, Object> s : (List<Map<String, Object>>) supervisors.get("supervisors")) {
            supervisorRows.add(List.of(Html.escape(s.get("host")), Html.escape(s.get("id")), Html.escape(s.get("uptime")),
                Html.number(s.get("slotsTotal")), Html.number(s.get("slotsUsed")), Html.number(s.get("slotsFree"))));
        }
        body.append("<h2>Supervisors</h2>").append(Html.table("supervisors",
            List.of("Host", "Id", "Uptime", "Slots", "Used slots", "Free slots"), supervisorRows));
        return Html.page("Cluster", body.toString());
    }
}
