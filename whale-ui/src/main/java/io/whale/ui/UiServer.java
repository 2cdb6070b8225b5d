package io.whale.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.whale.ui.api.StormUiJson;
import io.whale.ui.metrics.ClusterGauges;
import io.whale.ui.page.ClusterPage;
import io.whale.ui.page.Html;
import io.whale.ui.page.TopologyPage;
import io.whale.ui.page.TreeSvg;
import io.whale.ui.page.WhalePanelFragment;
import io.whale.ui.source.NimbusGateway;
import io.whale.ui.source.UiError;
import io.whale.ui.source.ZooKeeperView;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code whale ui [--port PORT]}: the UI daemon, in the foreground like {@code storm ui}, on {@code ui.port} (8080 unless
 * configured) of {@code ui.host} (every interface unless configured), as Storm's UI. Pages at {@code /} (cluster),
 * {@code /topology.html?id=ID[&window=W]} and {@code /whale.html?id=ID} (the Whale panel alone), the Storm UI's
 * JSON under {@code /api/v1/}, Whale's under {@code /api/v1/whale/}, cluster gauges at {@code /metrics}.
 */
public final class UiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UiServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USAGE = "usage: whale ui [--port PORT]";
    private static final Pattern TOPOLOGY = Pattern.compile("/api/v1/topology/([^/]+)");
    private static final Pattern ACTION = Pattern.compile("/api/v1/topology/([^/]+)/(activate|deactivate|rebalance|kill)(?:/(\\d+))?");
    private static final Pattern WHALE_TOPOLOGY = Pattern.compile("/api/v1/whale/topology/([^/]+)(/trees\\.svg)?");
    /** The most a topology action's form may carry: its one field is {@code redirect=page}. */
    static final int MAX_ACTION_BODY_BYTES = 4096;
    /**
     * On every page and JSON answer: no page of another site may frame the UI (clickjacking on Kill), no browser may
     * guess a content type, scripts and styles come from the UI alone, forms post only to it.
     */
    static final Map<String, String> SECURITY_HEADERS = Map.of(
        "X-Content-Type-Options", "nosniff",
        "X-Frame-Options", "DENY",
        "Referrer-Policy", "same-origin",
        "Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");

    /**
     * A client must send its whole request within {@value #REQUEST_SECONDS} s and take the answer within {@value
     * #RESPONSE_SECONDS} s, else the JDK's server closes the connection: a client trickling bytes cannot hold one of the
     * UI's few threads for ever (issue 34). The JDK reads these once, when its first server is made; set on the command
     * line, they win.
     */
    static final int REQUEST_SECONDS = 10;
    static final int RESPONSE_SECONDS = 30;

    static {
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", String.valueOf(REQUEST_SECONDS));
        }
        if (System.getProperty("sun.net.httpserver.maxRspTime") == null) {
            System.setProperty("sun.net.httpserver.maxRspTime", String.valueOf(RESPONSE_SECONDS));
        }
    }

    private final HttpServer server;
    private final ExecutorService threads;
    private final UiService service;
    private final ZooKeeperView zookeeper;
    private final boolean actionsEnabled;

    UiServer(Map<String, Object> conf, int port) throws IOException {
        List<String> unhonoured = UiSecurity.unhonoured(conf);
        if (!unhonoured.isEmpty()) {
            throw new IllegalArgumentException(UiSecurity.refusal(unhonoured));
        }
        this.actionsEnabled = UiSecurity.actionsEnabled(conf);
        UiHosts hosts = UiHosts.of(conf, Utils.hostname());
        this.zookeeper = new ZooKeeperView(conf);
        this.service = new UiService(new NimbusGateway(conf), zookeeper);
        this.server = HttpServer.create(new InetSocketAddress(String.valueOf(conf.getOrDefault("ui.host", "0.0.0.0")), port), 0);
        this.threads = Executors.newFixedThreadPool(4);
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new ClusterGauges(() -> service.nimbus().cluster()));
        Filter ownNamesOnly = new OwnNamesOnly(hosts);
        server.createContext("/metrics", new MetricsHandler(registry)).getFilters().add(ownNamesOnly);
        server.createContext("/", this::handle).getFilters().add(ownNamesOnly);
        server.setExecutor(threads);
    }

    public static void main(String[] args) throws Exception {
        Map<String, Object> conf = Utils.readStormConfig();
        int port;
        try {
            port = port(args, conf);
        } catch (IllegalArgumentException e) {
            System.err.println("whale ui: " + e.getMessage());
            System.exit(2);
            return;
        }
        UiServer ui;
        try {
            ui = new UiServer(conf, port);
        } catch (BindException e) {
            System.err.println("whale ui: port " + port + " (ui.port) is taken by another process; choose another with --port or ui.port");
            System.exit(1);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println("whale ui: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            ui.close();
            stopped.countDown();
        }, "ui-shutdown"));
        ui.start();
        LOG.info("Whale UI on http://{}:{}/ (Nimbus {}:{})", Utils.hostname(), port, conf.get("nimbus.seeds"), conf.get("nimbus.thrift.port"));
        System.out.println("Whale UI on http://" + Utils.hostname() + ":" + port + "/");
        stopped.await();
    }

    void start() {
        server.start();
    }

    /** The port bound (the one asked for, or the one chosen for port 0). */
    int port() {
        return server.getAddress().getPort();
    }

    static int port(String[] args, Map<String, Object> conf) {
        Object configured = conf.getOrDefault("ui.port", 8080);
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--port") && i + 1 < args.length) {
                configured = args[++i];
            } else if (args[i].equals("-h") || args[i].equals("--help")) {
                System.out.println(USAGE);
                System.exit(0);
            } else {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'; " + USAGE);
            }
        }
        try {
            int port = Integer.parseInt(String.valueOf(configured).trim());
            if (port < 1 || port > 65535) {
                throw new NumberFormatException();
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ui.port (or --port) must be a port number 1..65535, got '" + configured + "'");
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        boolean api = path.startsWith("/api/");
        SECURITY_HEADERS.forEach(exchange.getResponseHeaders()::set);
        try {
            if ("POST".equals(exchange.getRequestMethod())) {
                post(exchange, path);
            } else if (!"GET".equals(exchange.getRequestMethod())) {
                throw new UiError(405, exchange.getRequestMethod() + " is not served here");
            } else {
                get(exchange, path);
            }
        } catch (UiError e) {
            LOG.warn("{} {}: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.getMessage());
            if (api) {
                send(exchange, e.status(), "application/json", JSON.writeValueAsString(Map.of("error", e.getMessage(), "errorMessage", e.getMessage())));
            } else {
                send(exchange, e.status(), "text/html; charset=utf-8", Html.page("Error", Html.error(e.getMessage())
                    + "<p><a href=\"/\">Back to the cluster</a></p>"));
            }
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            String message = "the UI could not answer: " + e;
            send(exchange, 500, api ? "application/json" : "text/html; charset=utf-8",
                api ? JSON.writeValueAsString(Map.of("error", message, "errorMessage", message)) : Html.page("Error", Html.error(message)));
        } finally {
            exchange.close();
        }
    }

    private void get(HttpExchange exchange, String path) throws IOException {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        Matcher m;
        switch (path) {
            case "/", "/index.html" -> {
                ClusterSummary cluster = service.nimbus().cluster();
                html(exchange, ClusterPage.render(StormUiJson.clusterSummary(cluster), StormUiJson.nimbusSummary(cluster),
                    StormUiJson.supervisorSummary(cluster), StormUiJson.topologySummary(cluster)));
            }
            case "/topology.html" -> {
                String id = required(query, "id");
                UiService.Panel panel = service.whalePanel(id);
                html(exchange, TopologyPage.render(service.topology(id, query.getOrDefault("window", ":all-time")), panel.pids(),
                    fragment(panel), actionsEnabled));
            }
            case "/whale.html" -> {
                String id = required(query, "id");
                UiService.Panel panel = service.whalePanel(id);
                html(exchange, WhalePanelFragment.page(String.valueOf(panel.doc().get("name")), id, fragment(panel)));
            }
            case "/whale-panel.html" -> html(exchange, fragment(service.whalePanel(required(query, "id"))));
            case "/api/v1/cluster/summary" -> json(exchange, StormUiJson.clusterSummary(service.nimbus().cluster()));
            case "/api/v1/nimbus/summary" -> json(exchange, StormUiJson.nimbusSummary(service.nimbus().cluster()));
            case "/api/v1/supervisor/summary" -> json(exchange, StormUiJson.supervisorSummary(service.nimbus().cluster()));
            case "/api/v1/topology/summary" -> json(exchange, StormUiJson.topologySummary(service.nimbus().cluster()));
            case "/api/v1/whale/prometheus-targets" -> json(exchange, service.prometheusTargets());
            default -> {
                if ((m = TOPOLOGY.matcher(path)).matches()) {
                    json(exchange, service.topology(m.group(1), query.getOrDefault("window", ":all-time")));
                } else if ((m = WHALE_TOPOLOGY.matcher(path)).matches()) {
                    UiService.Panel panel = service.whalePanel(m.group(1));
                    if (m.group(2) == null) {
                        json(exchange, panel.doc());
                    } else {
                        send(exchange, 200, "image/svg+xml", TreeSvg.render(panel.trees()));
                    }
                } else {
                    throw new UiError(404, "nothing at " + path);
                }
            }
        }
    }

    private static String fragment(UiService.Panel panel) {
        return WhalePanelFragment.render(panel.doc(), TreeSvg.render(panel.trees()));
    }

    /** Storm UI's topology actions; a form of the page (field redirect) is sent back to the page instead of JSON. */
    private void post(HttpExchange exchange, String path) throws IOException {
        Matcher m = ACTION.matcher(path);
        if (!m.matches()) {
            throw new UiError(404, "no action at " + path);
        }
        String form = actionForm(exchange);
        if (!actionsEnabled) {
            throw new UiError(403, "topology actions are disabled on this UI (ui.actions.enabled: false)");
        }
        Optional<String> refusal = SameOrigin.refusal(exchange.getRequestHeaders().getFirst("Origin"),
            exchange.getRequestHeaders().getFirst("Referer"), exchange.getRequestHeaders().getFirst("Host"));
        if (refusal.isPresent()) {
            throw new UiError(403, refusal.get());
        }
        String id = m.group(1);
        String verb = m.group(2);
        int wait = m.group(3) == null ? 30 : Integer.parseInt(m.group(3));
        switch (verb) {
            case "activate" -> service.nimbus().activate(id);
            case "deactivate" -> service.nimbus().deactivate(id);
            case "rebalance" -> service.nimbus().rebalance(id, wait);
            default -> service.nimbus().kill(id, wait);
        }
        LOG.info("{} of topology {} asked from {}", verb, id, exchange.getRemoteAddress());
        if (query(form).containsKey("redirect")) {
            exchange.getResponseHeaders().add("Location", verb.equals("kill") ? "/" : "/topology.html?id=" + id);
            send(exchange, 303, "text/plain", verb + " asked");
        } else {
            json(exchange, Map.of("topologyOperation", verb, "topologyId", id, "status", "success"));
        }
    }

    /** The action's form, read whole before anything is done; a body beyond {@link #MAX_ACTION_BODY_BYTES} is refused. */
    private static String actionForm(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readNBytes(MAX_ACTION_BODY_BYTES + 1);
        if (body.length > MAX_ACTION_BODY_BYTES) {
            throw new UiError(413, "a topology action's form holds at most " + MAX_ACTION_BODY_BYTES + " bytes");
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    private static String required(Map<String, String> query, String name) {
        String value = query.get(name);
        if (value == null || value.isBlank()) {
            throw new UiError(400, "the page needs ?" + name + "=...");
        }
        return value;
    }

    static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                query.put(key, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    private static void html(HttpExchange exchange, String page) throws IOException {
        send(exchange, 200, "text/html; charset=utf-8", page);
    }

    private static void json(HttpExchange exchange, Object doc) throws IOException {
        send(exchange, 200, "application/json", JSON.writeValueAsString(doc));
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** Refuses, before anything is read or asked, a request naming a host that is not one of the UI's ({@link UiHosts}). */
    private static final class OwnNamesOnly extends Filter {
        private final UiHosts hosts;

        OwnNamesOnly(UiHosts hosts) {
            this.hosts = hosts;
        }

        @Override
        public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
            Optional<String> refusal = hosts.refusal(exchange.getRequestHeaders().getFirst("Host"));
            if (refusal.isEmpty()) {
                chain.doFilter(exchange);
                return;
            }
            LOG.warn("{} {} from {}: {}", exchange.getRequestMethod(), exchange.getRequestURI(), exchange.getRemoteAddress(), refusal.get());
            try {
                SECURITY_HEADERS.forEach(exchange.getResponseHeaders()::set);
                send(exchange, 403, "text/plain; charset=utf-8", refusal.get());
            } finally {
                exchange.close();
            }
        }

        @Override
        public String description() {
            return "answers only requests naming one of the UI's own hosts";
        }
    }

    @Override
    public void close() {
        try {
            server.stop(1);
        } finally {
            threads.shutdownNow();
            zookeeper.close();
        }
    }
}
