package io.whale.ui;

import io.whale.relay.MulticastBoard;
import io.whale.metrics.prometheus.PrometheusTargets;
import io.whale.ui.api.DrawnTree;
import io.whale.ui.api.StormUiJson;
import io.whale.ui.api.WhalePanel;
import io.whale.ui.source.NimbusGateway;
import io.whale.ui.source.UiError;
import io.whale.ui.source.WorkerScraper;
import io.whale.ui.source.ZooKeeperView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologyPageInfo;
import org.apache.storm.generated.WorkerSummary;

/** What the pages and the JSON API show, gathered from Nimbus, ZooKeeper and the workers' Prometheus endpoints. */
final class UiService {
    private final NimbusGateway nimbus;
    private final ZooKeeperView zookeeper;
    private final WorkerScraper scraper;

    UiService(NimbusGateway nimbus, ZooKeeperView zookeeper) {
        this(nimbus, zookeeper, new WorkerScraper());
    }

    private UiService(NimbusGateway nimbus, ZooKeeperView zookeeper, WorkerScraper scraper) {
        this.nimbus = nimbus;
        this.zookeeper = zookeeper;
        this.scraper = scraper;
    }

    /** This service asking Nimbus as {@code user} (see {@link NimbusGateway#as}). */
    UiService as(String user) {
        return user == null ? this : new UiService(nimbus.as(user), zookeeper, scraper);
    }

    NimbusGateway nimbus() {
        return nimbus;
    }

    /** Nimbus's page for every window of Storm's UI ({@code window} first, so a bad id fails once). */
    Map<String, Object> topology(String id, String window) {
        if (!StormUiJson.WINDOWS.contains(window)) {
            throw new UiError(400, "window must be one of " + StormUiJson.WINDOWS + ", got '" + window + "'");
        }
        Map<String, TopologyPageInfo> pages = new HashMap<>();
        pages.put(window, nimbus.topologyPage(id, window));
        for (String w : StormUiJson.WINDOWS) {
            pages.computeIfAbsent(w, x -> nimbus.topologyPage(id, x));
        }
        return StormUiJson.topology(pages, window);
    }

    /**
     * The Whale panel's JSON document, the broadcast paths it draws, and the pids of the workers whose endpoints it read
     * (worker host:port to pid; the topology page shows them).
     */
    record Panel(Map<String, Object> doc, List<DrawnTree> trees, Map<String, Long> pids) {
    }

    Panel whalePanel(String id) {
        Map<String, Object> conf = nimbus.topologyConf(id);
        TopologyInfo info = nimbus.topologyInfo(id);
        Map<String, Object> switches = WhalePanel.switches(conf);
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("topologyId", id);
        doc.put("name", info.get_name());
        doc.put("switches", switches);

        List<DrawnTree> trees;
        if ("sequential".equals(switches.get("multicastStructure"))) {
            trees = WhalePanel.fanOuts(WhalePanel.broadcasts(nimbus.userTopology(id)), info);
            doc.put("paths", "sequential fan-out from each source worker");
        } else {
            List<MulticastBoard> boards = zookeeper.boards(id);
            trees = WhalePanel.relayTrees(boards, components(info));
            doc.put("paths", "relay trees published by " + boards.size() + " source worker(s)");
        }
        doc.put("trees", trees.stream().map(t -> Map.of("title", t.title(), "caption", t.caption(), "workers", t.workers(),
            "destinationWorkers", t.workers().size() - 1)).toList());

        Map<String, Long> pids = new HashMap<>();
        if (Boolean.TRUE.equals(switches.get("prometheus"))) {
            List<PrometheusTargets.Target> targets = zookeeper.targets().stream().filter(t -> t.topologyId().equals(id)).toList();
            targets.forEach(t -> pids.put(t.host() + ":" + t.workerPort(), t.pid()));
            List<Map<String, Double>> scrapes = new ArrayList<>();
            for (PrometheusTargets.Target target : targets) {
                try {
                    scrapes.add(scraper.scrape(target));
                } catch (UiError e) {
                    problems.add(e.getMessage());
                }
            }
            if (targets.isEmpty()) {
                problems.add("no worker of this topology has published a Prometheus endpoint yet (see the workers' logs for "
                    + WhalePanel.PROMETHEUS_REPORTER + ")");
            }
            doc.put("workersScraped", scrapes.size());
            Map<String, String> workers = new HashMap<>();
            for (WorkerSummary w : nimbus.topologyPage(id, ":all-time").get_workers()) {
                workers.put(WhalePanel.bytesSentToMetric(w.get_supervisor_id(), w.get_port()), w.get_host() + ":" + w.get_port());
            }
            doc.put("counters", WhalePanel.counters(scrapes, workers));
        } else {
            notes.add("The WOC, RDMA and relay counters come from the workers' Prometheus endpoints, which this topology does"
                + " not run: add " + WhalePanel.PROMETHEUS_REPORTER + " to topology.metrics.reporters (see the README).");
        }
        doc.put("problems", problems);
        doc.put("notes", notes);
        return new Panel(doc, trees, pids);
    }

    /** {@code /api/v1/whale/prometheus-targets}: Prometheus file-based service discovery, one group per worker. */
    List<Map<String, Object>> prometheusTargets() {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (PrometheusTargets.Target t : zookeeper.targets()) {
            Map<String, Object> labels = new LinkedHashMap<>();
            labels.put("topology_id", t.topologyId());
            labels.put("worker", t.host() + ":" + t.workerPort());
            groups.add(Map.of("targets", List.of(t.address()), "labels", labels));
        }
        return groups;
    }

    private static Map<Integer, String> components(TopologyInfo info) {
        Map<Integer, String> components = new HashMap<>();
        for (ExecutorSummary e : info.get_executors()) {
            for (int task = e.get_executor_info().get_task_start(); task <= e.get_executor_info().get_task_end(); task++) {
                components.put(task, e.get_component_id());
            }
        }
        return components;
    }
}
