package io.whale.distribution;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.whale.examples.smoke.SmokeTopology;
import io.whale.ui.login.PasswordLoginFilter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code whale ui} on a real local cluster (started by {@code local-cluster up}, in a private network namespace) while
 * the all-grouping smoke topology runs on three workers: the Storm UI's JSON paths, Whale's panel and scrape targets,
 * a worker's Prometheus endpoint parsed with the Prometheus client's classes, and every page loaded in headless
 * Chromium, asserting what a person would see there; the screenshots go to target/ui-screenshots.
 */
@SharedCluster.On(SharedCluster.Shape.TWO_SUPERVISORS)
class UiClusterIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAME = "ui-smoke";
    private static final String UI = "http://127.0.0.1:16002";
    private static final int SECURED_PORT = 16003;
    private static final String ADMIN_PASSWORD = "admin-secret";
    private static final String CAROL_PASSWORD = "carol-secret";
    private static final int WORKERS = 3;
    private static final int TASKS = 6;
    private static final Path SCREENSHOTS = Path.of("target/ui-screenshots").toAbsolutePath();

    @Test
    void shouldShowTheClusterTheTopologyAndItsBroadcastWhileTheSmokeTopologyRuns(PrivateLocalCluster cluster) throws Exception {
        assumeTrue(HeadlessChromium.available(), "needs Debian's chromium (dev-tools/setup-host.sh installs it)");
        Path dir = Files.createDirectories(cluster.dir().resolve(NAME));

        cluster.submit(List.of(), SmokeTopology.class.getName(), List.of("--name", NAME, "--tuples", "1000000", "--rate", "200",
            "--parallelism", String.valueOf(TASKS), "--workers", String.valueOf(WORKERS), "--report-dir", dir.resolve("report").toString()));
        String id = await("the topology listed by the UI with its workers").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
            .until(() -> topologyId(json(cluster, "/api/v1/topology/summary")), i -> i != null);

        JsonNode summary = await("the supervisors report the topology's slots").atMost(Duration.ofMinutes(1))
            .pollInterval(Duration.ofSeconds(1)).until(() -> json(cluster, "/api/v1/cluster/summary"), s -> s.get("slotsUsed").asInt() == WORKERS);
        assertEquals(2, summary.get("supervisors").asInt());
        assertEquals(8, summary.get("slotsTotal").asInt());
        assertEquals(WORKERS, summary.get("slotsUsed").asInt());
        assertEquals(1, summary.get("topologies").asInt());
        JsonNode supervisors = json(cluster, "/api/v1/supervisor/summary").get("supervisors");
        assertEquals(2, supervisors.size());
        supervisors.forEach(s -> assertEquals("127.0.0.1", s.get("host").asText()));

        // the page counts the tasks of executors that have sent stats: a worker that started last may not have yet (on
        // CI's loaded cores the page once showed its three workers 0-1 s up a minute after the submit; why, the cluster's
        // logs would tell, which a failure now shows)
        JsonNode topology = await("every executor's stats on the topology page").atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofSeconds(1)).until(() -> json(cluster, "/api/v1/topology/" + id + "?window=600"),
                t -> t.path("bolts").path(0).path("tasks").asInt() == TASKS && t.path("workers").size() == WORKERS);
        assertEquals(NAME, topology.get("name").asText());
        assertEquals(SmokeTopology.SPOUT, topology.get("spouts").get(0).get("spoutId").asText());
        assertEquals(SmokeTopology.BOLT, topology.get("bolts").get(0).get("boltId").asText());
        assertEquals(TASKS, topology.get("bolts").get(0).get("tasks").asInt());
        assertEquals(4, topology.get("topologyStats").size(), "10 min, 3 h, 1 day, all time");
        assertEquals(WORKERS, topology.get("workers").size());
        int destinationWorkers = destinationWorkers(topology);

        JsonNode panel = await("WOC counters from every worker's Prometheus endpoint").atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofSeconds(2)).until(() -> json(cluster, "/api/v1/whale/topology/" + id),
                // the workers are read one after the other: at the start the source's frames may show before or after
                // their arrival does, so both are awaited
                p -> p.path("workersScraped").asInt() == WORKERS && p.path("counters").path("woc").path("frames_received").asLong() > 0
                    && p.path("counters").path("woc").path("frames_sent").asLong() > 0);
        assertEquals(0, panel.get("problems").size(), panel.toString());
        assertTrue(panel.get("switches").get("woc").asBoolean(), "conf/storm.yaml switches WOC on");
        assertEquals("sequential", panel.get("switches").get("multicastStructure").asText());
        assertEquals(1.0, panel.get("counters").get("woc").get("serializations_per_emit").asDouble(), 0.05, panel.toString());
        assertEquals(0, panel.get("counters").get("woc").get("frames_malformed").asLong());
        assertEquals(1, panel.get("trees").size(), "one source worker of the one broadcast: " + panel);
        assertEquals(destinationWorkers, panel.get("trees").get(0).get("destinationWorkers").asInt(), panel.toString());

        JsonNode targets = json(cluster, "/api/v1/whale/prometheus-targets");
        assertEquals(WORKERS, targets.size(), targets.toString());
        Set<String> workers = new HashSet<>();
        for (JsonNode group : targets) {
            int port = Integer.parseInt(group.get("targets").get(0).asText().split(":")[1]);
            assertTrue(port >= 16050 && port <= 16099, "a worker's endpoint outside the cluster's range: " + group);
            assertEquals(id, group.get("labels").get("topology_id").asText());
            workers.add(group.get("labels").get("worker").asText());
        }
        assertEquals(WORKERS, workers.size(), "one endpoint per worker: " + targets);

        Map<String, Metrics.MetricFamily> scraped = scrapeProtobuf(cluster, dir, targets.get(0).get("targets").get(0).asText());
        assertTrue(scraped.containsKey("storm_worker_transfer_queue_population"), scraped.keySet().toString());
        Metrics.MetricFamily frames = scraped.get("storm_woc_frames_received_total");
        assertTrue(frames != null && frames.getType() == Metrics.MetricType.COUNTER, scraped.keySet().toString());
        Map<String, String> labels = new HashMap<>();
        frames.getMetric(0).getLabelList().forEach(l -> labels.put(l.getName(), l.getValue()));
        assertEquals(id, labels.get("topology"), labels.toString());

        String clusterPage = HeadlessChromium.dom(cluster, UI + "/");
        assertTrue(clusterPage.contains("<a href=\"/topology.html?id=" + id + "\">" + NAME + "</a>"), clusterPage);
        assertEquals(2, rows(clusterPage, "supervisors"), clusterPage);
        HeadlessChromium.screenshot(cluster, UI + "/", SCREENSHOTS.resolve("cluster.png"), 1200, 760);

        String topologyPage = HeadlessChromium.dom(cluster, UI + "/topology.html?id=" + id);
        assertTrue(topologyPage.contains("Topology " + NAME), topologyPage);
        assertEquals(1, rows(topologyPage, "bolts"), topologyPage);
        assertEquals(WORKERS, rows(topologyPage, "workers"), topologyPage);
        assertTrue(firstNumber(topologyPage, "woc-counters") > 0, "frames sent, as the Whale panel shows it:\n" + topologyPage);
        Matcher nodes = Pattern.compile("<g class=\"worker\" data-worker=").matcher(topologyPage);
        assertEquals(destinationWorkers, nodes.results().count(), "one node per destination worker in the tree SVG:\n" + topologyPage);
        assertEquals(1, Pattern.compile("<g class=\"worker source\"").matcher(topologyPage).results().count());
        HeadlessChromium.screenshot(cluster, UI + "/topology.html?id=" + id, SCREENSHOTS.resolve("topology.png"), 1200, 2200);
        String whalePage = HeadlessChromium.dom(cluster, UI + "/whale.html?id=" + id);
        assertTrue(whalePage.contains("Whale panel of " + NAME) && firstNumber(whalePage, "woc-counters") > 0, whalePage);
        HeadlessChromium.screenshot(cluster, UI + "/whale.html?id=" + id, SCREENSHOTS.resolve("whale.png"), 1200, 1000);

        String missing = HeadlessChromium.dom(cluster, UI + "/topology.html?id=no-such-topology-1-1");
        assertTrue(missing.contains("role=\"alert\">topology no-such-topology-1-1 not found"), missing);

        actFromThePageWithItsSessionsToken(cluster, dir, id);
        actThroughALoginFilter(cluster, dir, id);
        await("the topology killed").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
            .until(() -> json(cluster, "/api/v1/topology/summary").get("topologies").size() == 0);
        await("its workers gone, their slots free").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
            .until(() -> json(cluster, "/api/v1/cluster/summary").get("slotsUsed").asInt() == 0);
    }

    /**
     * An action posted as the browser posts the page's form: with the page's origin, its session cookie and the token the
     * page carries it is done (the page is sent back); with a token of no session it is refused. Activate: the topology
     * is active already, so nothing changes for the rest of the test.
     */
    private static void actFromThePageWithItsSessionsToken(PrivateLocalCluster cluster, Path dir, String id) throws Exception {
        Path jar = dir.resolve("ui-cookies.txt");
        WhaleCli.Result page = cluster.inside(Duration.ofMinutes(1), "curl", "-s", "--max-time", "30", "-c", jar.toString(),
            UI + "/topology.html?id=" + id);
        Matcher token = Pattern.compile("<input type=\"hidden\" name=\"token\" value=\"([^\"]+)\">").matcher(page.output());
        assertTrue(token.find(), "the page's forms carry its session's token:\n" + page.output());
        for (String form : List.of("redirect=page&token=forged", "redirect=page&token=" + token.group(1))) {
            WhaleCli.Result posted = cluster.inside(Duration.ofMinutes(1), "curl", "-s", "--max-time", "30", "-b", jar.toString(),
                "-H", "Origin: " + UI, "-o", "/dev/null", "-w", "%{http_code}", "--data", form, UI + "/api/v1/topology/" + id + "/activate");
            assertEquals(form.endsWith("forged") ? "403" : "303", posted.output().strip(), form);
        }
    }

    /**
     * A second whale ui on the cluster, secured as an operator secures Storm's: a login filter ({@code ui.filter}, here
     * a test filter checking passwords, on the class path by Storm's {@code STORM_EXT_CLASSPATH_DAEMON}) and {@code
     * nimbus.authorizer} with one admin. An anonymous action is refused by the filter, a logged-in user who is not
     * allowed by the authorizer, and the admin's deactivate and kill are done.
     */
    private static void actThroughALoginFilter(PrivateLocalCluster cluster, Path dir, String id) throws Exception {
        Path filterJar = Path.of(PasswordLoginFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process secured = cluster.startWhale(Map.of("STORM_EXT_CLASSPATH_DAEMON", filterJar.toString()), dir.resolve("secured-ui.out"),
            "--config", cluster.dir().resolve("conf/storm.yaml").toString(),
            "-c", "ui.filter=" + PasswordLoginFilter.class.getName(),
            "-c", "ui.filter.params={\"users\": \"admin:" + ADMIN_PASSWORD + ",carol:" + CAROL_PASSWORD + "\"}",
            "-c", "nimbus.authorizer=org.apache.storm.security.auth.authorizer.SimpleACLAuthorizer",
            "-c", "nimbus.admins=[\"admin\"]",
            "ui", "--port", String.valueOf(SECURED_PORT));
        try {
            await("the secured UI up").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
                .until(() -> status(cluster, "GET", "/api/v1/cluster/summary", null).startsWith("401"));

            String anonymous = status(cluster, "POST", "/api/v1/topology/" + id + "/kill/1", null);
            assertTrue(anonymous.startsWith("401"), anonymous);
            String carolReads = status(cluster, "GET", "/api/v1/topology/summary", "carol:" + CAROL_PASSWORD);
            assertTrue(carolReads.startsWith("200") && carolReads.contains(NAME), "anyone logged in reads the cluster: " + carolReads);
            String carolKills = status(cluster, "POST", "/api/v1/topology/" + id + "/kill/1", "carol:" + CAROL_PASSWORD);
            assertTrue(carolKills.startsWith("403") && carolKills.contains("'carol' is not allowed killTopology on topology " + id), carolKills);
            assertEquals("ACTIVE", json(cluster, "/api/v1/topology/summary").get("topologies").get(0).get("status").asText(),
                "nothing refused was done");

            String deactivated = status(cluster, "POST", "/api/v1/topology/" + id + "/deactivate", "admin:" + ADMIN_PASSWORD);
            assertTrue(deactivated.startsWith("200") && deactivated.contains("\"status\":\"success\""), deactivated);
            await("the topology inactive").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                .until(() -> json(cluster, "/api/v1/topology/summary").get("topologies").get(0).get("status").asText(), "INACTIVE"::equals);
            String killed = status(cluster, "POST", "/api/v1/topology/" + id + "/kill/1", "admin:" + ADMIN_PASSWORD);
            assertTrue(killed.startsWith("200"), killed);
        } finally {
            secured.destroy();
            assertTrue(secured.waitFor(30, TimeUnit.SECONDS), "the secured UI stopped");
        }
    }

    /** The HTTP status and body of METHOD PATH on the secured UI, as {@code "STATUS BODY"}, logged in as {@code user:password} unless null. */
    private static String status(PrivateLocalCluster cluster, String method, String path, String login) throws IOException, InterruptedException {
        Path body = Files.createTempFile(cluster.dir(), "secured-ui-", ".body");
        try {
            List<String> curl = new ArrayList<>(List.of("curl", "-s", "--max-time", "30", "-X", method, "-w", "%{http_code}", "-o", body.toString()));
            if (login != null) {
                curl.addAll(List.of("-u", login));
            }
            curl.add("http://127.0.0.1:" + SECURED_PORT + path);
            WhaleCli.Result result = cluster.inside(Duration.ofMinutes(1), curl.toArray(String[]::new));
            return result.output().strip() + " " + Files.readString(body);
        } finally {
            Files.deleteIfExists(body);
        }
    }

    private static JsonNode json(PrivateLocalCluster cluster, String path) throws IOException, InterruptedException {
        WhaleCli.Result result = cluster.inside(Duration.ofMinutes(1), "curl", "-s", "--max-time", "30", UI + path);
        assertEquals(0, result.exit(), "the UI does not answer " + path + ":\n" + result.output());
        return JSON.readTree(result.output());
    }

    private static String topologyId(JsonNode summary) {
        for (JsonNode t : summary.get("topologies")) {
            if (t.get("name").asText().equals(NAME) && t.get("workersTotal").asInt() == WORKERS) {
                return t.get("id").asText();
            }
        }
        return null;
    }

    /** Workers other than the spout's that hold tasks of the broadcast's destination bolt. */
    private static int destinationWorkers(JsonNode topology) {
        String source = null;
        for (JsonNode w : topology.get("workers")) {
            if (w.get("componentNumTasks").has(SmokeTopology.SPOUT)) {
                source = w.get("host").asText() + ":" + w.get("port").asInt();
            }
        }
        int count = 0;
        for (JsonNode w : topology.get("workers")) {
            String worker = w.get("host").asText() + ":" + w.get("port").asInt();
            if (!worker.equals(source) && w.get("componentNumTasks").has(SmokeTopology.BOLT)) {
                count++;
            }
        }
        return count;
    }

    private static Map<String, Metrics.MetricFamily> scrapeProtobuf(PrivateLocalCluster cluster, Path dir, String target)
        throws IOException, InterruptedException {
        Path body = dir.resolve("worker-metrics.pb");
        WhaleCli.Result result = cluster.inside(Duration.ofMinutes(1), "curl", "-s", "--max-time", "10", "-o", body.toString(), "-H",
            "Accept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited", "http://" + target + "/metrics");
        assertEquals(0, result.exit(), result.output());
        Map<String, Metrics.MetricFamily> families = new HashMap<>();
        try (InputStream in = Files.newInputStream(body)) {
            Metrics.MetricFamily family;
            while ((family = Metrics.MetricFamily.parseDelimitedFrom(in)) != null) {
                families.put(family.getName(), family);
            }
        }
        assertFalse(families.isEmpty(), "the endpoint served no metric family");
        return families;
    }

    /** Data rows of the table of class {@code cssClass} in the DOM. */
    private static int rows(String dom, String cssClass) {
        Matcher table = Pattern.compile("<table class=\"" + cssClass + "\">(.*?)</table>", Pattern.DOTALL).matcher(dom);
        assertTrue(table.find(), "no table " + cssClass);
        return (int) Pattern.compile("<tr>").matcher(table.group(1)).results().count() - 1;
    }

    private static long firstNumber(String dom, String cssClass) {
        Matcher cell = Pattern.compile("<table class=\"" + cssClass + "\">.*?<td class=\"n\">(\\d+)</td>", Pattern.DOTALL).matcher(dom);
        assertTrue(cell.find(), "no number in table " + cssClass);
        return Long.parseLong(cell.group(1));
    }
}
