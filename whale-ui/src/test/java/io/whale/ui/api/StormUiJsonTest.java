package io.whale.ui.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.BoltAggregateStats;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.CommonAggregateStats;
import org.apache.storm.generated.ComponentAggregateStats;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.generated.SpecificAggregateStats;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.TopologyStats;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.generated.WorkerSummary;
import org.junit.jupiter.api.Test;

class StormUiJsonTest {

    @Test
    void shouldSumSlotsExecutorsAndTasksUnderTheStormUisFieldNames() {
        ClusterSummary cluster = cluster();

        Map<String, Object> doc = StormUiJson.clusterSummary(cluster);

        assertEquals("2.8.3", doc.get("stormVersion"));
        assertEquals(2, doc.get("supervisors"));
        assertEquals(1, doc.get("topologies"));
        assertEquals(8, doc.get("slotsTotal"));
        assertEquals(3, doc.get("slotsUsed"));
        assertEquals(5, doc.get("slotsFree"));
        assertEquals(9, doc.get("executorsTotal"));
        assertEquals(12, doc.get("tasksTotal"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldListSupervisorsAndTopologiesWithTheirUptimesAsStormPrintsThem() {
        ClusterSummary cluster = cluster();

        Map<String, Object> supervisor = ((List<Map<String, Object>>) StormUiJson.supervisorSummary(cluster).get("supervisors")).get(0);
        Map<String, Object> topology = ((List<Map<String, Object>>) StormUiJson.topologySummary(cluster).get("topologies")).get(0);

        assertEquals("10.0.0.2", supervisor.get("host"));
        assertEquals("sup-1", supervisor.get("id"));
        assertEquals("1h 1m 5s", supervisor.get("uptime"));
        assertEquals(3665, supervisor.get("uptimeSeconds"));
        assertEquals(2, supervisor.get("slotsUsed"));
        assertEquals("ridehailing-1-1700000000", topology.get("id"));
        assertEquals("ridehailing", topology.get("name"));
        assertEquals("ACTIVE", topology.get("status"));
        assertEquals(3, topology.get("workersTotal"));
        assertEquals("10m 0s", topology.get("uptime"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldGiveTheTopologyOneStatsEntryPerWindowAndItsComponentsOverTheChosenOne() {
        Map<String, TopologyPageInfo> pages = new HashMap<>();
        for (String w : StormUiJson.WINDOWS) {
            pages.put(w, page(w.equals("600") ? 100 : 1_000));
        }

        Map<String, Object> doc = StormUiJson.topology(pages, "600");

        List<Map<String, Object>> stats = (List<Map<String, Object>>) doc.get("topologyStats");
        assertEquals(List.of("600", "10800", "86400", ":all-time"), stats.stream().map(s -> s.get("window")).toList());
        assertEquals(List.of("10m 0s", "3h 0m 0s", "1d 0h 0m 0s", "All time"), stats.stream().map(s -> s.get("windowPretty")).toList());
        assertEquals(100L, stats.get(0).get("emitted"));
        assertEquals(1_000L, stats.get(3).get("emitted"));
        assertEquals("12.500", stats.get(0).get("completeLatency"));
        Map<String, Object> bolt = ((List<Map<String, Object>>) doc.get("bolts")).get(0);
        assertEquals("matcher", bolt.get("boltId"));
        assertEquals(100L, bolt.get("emitted"), "components over the chosen window");
        assertEquals("0.250", bolt.get("capacity"));
        assertEquals("0.040", bolt.get("executeLatency"));
        assertEquals(1, ((List<?>) doc.get("bolts")).size(), "system components (__acker) are left out as Storm's UI does");
        Map<String, Object> worker = ((List<Map<String, Object>>) doc.get("workers")).get(0);
        assertEquals("10.0.0.2", worker.get("host"));
        assertEquals(16110, worker.get("port"));
        assertEquals(Map.of("matcher", 4L), worker.get("componentNumTasks"));
    }

    private static ClusterSummary cluster() {
        SupervisorSummary one = new SupervisorSummary();
        one.set_host("10.0.0.2");
        one.set_supervisor_id("sup-1");
        one.set_uptime_secs(3665);
        one.set_num_workers(4);
        one.set_num_used_workers(2);
        SupervisorSummary two = new SupervisorSummary();
        two.set_host("10.0.0.3");
        two.set_supervisor_id("sup-2");
        two.set_num_workers(4);
        two.set_num_used_workers(1);
        TopologySummary topology = new TopologySummary();
        topology.set_id("ridehailing-1-1700000000");
        topology.set_name("ridehailing");
        topology.set_status("ACTIVE");
        topology.set_uptime_secs(600);
        topology.set_num_workers(3);
        topology.set_num_executors(9);
        topology.set_num_tasks(12);
        NimbusSummary nimbus = new NimbusSummary();
        nimbus.set_host("10.0.0.1");
        nimbus.set_version("2.8.3");
        ClusterSummary cluster = new ClusterSummary();
        cluster.set_supervisors(List.of(one, two));
        cluster.set_topologies(List.of(topology));
        cluster.set_nimbuses(List.of(nimbus));
        return cluster;
    }

    private static TopologyPageInfo page(long emitted) {
        TopologyStats stats = new TopologyStats();
        for (String w : StormUiJson.WINDOWS) {
            stats.put_to_window_to_emitted(w, emitted);
            stats.put_to_window_to_transferred(w, emitted);
            stats.put_to_window_to_acked(w, 0L);
            stats.put_to_window_to_failed(w, 0L);
            stats.put_to_window_to_complete_latencies_ms(w, 12.5);
        }
        CommonAggregateStats common = new CommonAggregateStats();
        common.set_num_executors(4);
        common.set_num_tasks(4);
        common.set_emitted(emitted);
        BoltAggregateStats bolt = new BoltAggregateStats();
        bolt.set_capacity(0.25);
        bolt.set_execute_latency_ms(0.04);
        ComponentAggregateStats matcher = new ComponentAggregateStats();
        matcher.set_common_stats(common);
        matcher.set_specific_stats(SpecificAggregateStats.bolt(bolt));
        ComponentAggregateStats acker = new ComponentAggregateStats();
        acker.set_common_stats(new CommonAggregateStats());
        WorkerSummary worker = new WorkerSummary();
        worker.set_host("10.0.0.2");
        worker.set_port(16110);
        worker.set_component_to_num_tasks(Map.of("matcher", 4L));
        TopologyPageInfo page = new TopologyPageInfo();
        page.set_id("ridehailing-1-1700000000");
        page.set_name("ridehailing");
        page.set_topology_stats(stats);
        page.set_id_to_bolt_agg_stats(Map.of("matcher", matcher, "__acker", acker));
        page.set_id_to_spout_agg_stats(Map.of());
        page.set_workers(List.of(worker));
        return page;
    }
}
