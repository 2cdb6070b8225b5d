package io.whale.ui;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.ui.api.StormUiJson;
import io.whale.ui.page.ClusterPage;
import io.whale.ui.page.Html;
import io.whale.ui.page.TopologyPage;
import io.whale.ui.page.TreeSvg;
import io.whale.ui.page.WhalePanelFragment;
import io.whale.ui.source.UiError;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.security.auth.ReqContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every page and JSON answer of the UI, and {@code /metrics}: a request is admitted ({@link UiAccess}) before Nimbus,
 * ZooKeeper or a worker is asked, and Nimbus is asked as the request's user. Pages at {@code /} (cluster),
 * {@code /topology.html?id=ID[&window=W]} and {@code /whale.html?id=ID} (the Whale panel alone), the Storm UI's JSON under
 * {@code /api/v1/}, Whale's under {@code /api/v1/whale/}.
 */
final class UiServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(UiServlet.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TOPOLOGY = Pattern.compile("/api/v1/topology/([^/]+)");
    private static final Pattern ACTION = Pattern.compile("/api/v1/topology/([^/]+)/(activate|deactivate|rebalance|kill)(?:/(\\d+))?");
    private static final Pattern WHALE_TOPOLOGY = Pattern.compile("/api/v1/whale/topology/([^/]+)(/trees\\.svg)?");

    private final transient UiService service;
    private final transient UiAccess access;
    private final transient HttpServlet metrics;
    private final boolean actionsEnabled;
    private final transient ActionToken tokens = new ActionToken();

    UiServlet(UiService service, UiAccess access, HttpServlet metrics, boolean actionsEnabled) {
        this.service = service;
        this.access = access;
        this.metrics = metrics;
        this.actionsEnabled = actionsEnabled;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getRequestURI();
        boolean api = path.startsWith("/api/");
        try {
            if ("POST".equals(request.getMethod())) {
                post(request, response, path);
            } else if (!"GET".equals(request.getMethod())) {
                throw new UiError(405, request.getMethod() + " is not served here");
            } else {
                get(request, response, path);
            }
        } catch (UiError e) {
            LOG.warn("{} {}: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
            if (api) {
                send(response, e.status(), "application/json", JSON.writeValueAsString(Map.of("error", e.getMessage(), "errorMessage", e.getMessage())));
            } else {
                send(response, e.status(), "text/html; charset=utf-8", Html.page("Error", Html.error(e.getMessage())
                    + "<p><a href=\"/\">Back to the cluster</a></p>"));
            }
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", request.getMethod(), request.getRequestURI(), e);
            String message = "the UI could not answer: " + e;
            send(response, 500, api ? "application/json" : "text/html; charset=utf-8",
                api ? JSON.writeValueAsString(Map.of("error", message, "errorMessage", message)) : Html.page("Error", Html.error(message)));
        } finally {
            ReqContext.reset();
        }
    }

    /** The service asking as the request's user, once {@link UiAccess} admitted the request. */
    private UiService admitted(HttpServletRequest request, String path, String id) {
        String user = access.admit(request, operation(request.getMethod(), path, id), service.nimbus()::topologyConf);
        return service.as(user);
    }

    /**
     * What a request to {@code path} by {@code method} ({@code id} the page's {@code ?id=}) asks of Nimbus, as Storm's UI
     * names it; empty where the UI asks Nimbus nothing (a path it does not serve, a page without its id).
     */
    static Optional<UiAccess.Operation> operation(String method, String path, String id) {
        Matcher m;
        if ("POST".equals(method)) {
            return (m = ACTION.matcher(path)).matches()
                ? Optional.of(new UiAccess.Operation(m.group(2).equals("kill") ? "killTopology" : m.group(2), m.group(1))) : Optional.empty();
        }
        return switch (path) {
            case "/", "/index.html", "/metrics", "/api/v1/cluster/summary", "/api/v1/nimbus/summary", "/api/v1/supervisor/summary",
                 "/api/v1/topology/summary", "/api/v1/whale/prometheus-targets" -> Optional.of(new UiAccess.Operation("getClusterInfo", null));
            case "/topology.html", "/whale.html", "/whale-panel.html" -> id == null || id.isBlank() ? Optional.empty()
                : Optional.of(new UiAccess.Operation("getTopology", id));
            default -> (m = TOPOLOGY.matcher(path)).matches() || (m = WHALE_TOPOLOGY.matcher(path)).matches()
                ? Optional.of(new UiAccess.Operation("getTopology", m.group(1))) : Optional.empty();
        };
    }

    private void get(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        String id = request.getParameter("id");
        UiService service = admitted(request, path, id);
        String window = Optional.ofNullable(request.getParameter("window")).orElse(":all-time");
        Matcher m;
        switch (path) {
            case "/metrics" -> scrape(request, response);
            case "/", "/index.html" -> {
                ClusterSummary cluster = service.nimbus().cluster();
                html(response, ClusterPage.render(StormUiJson.clusterSummary(cluster), StormUiJson.nimbusSummary(cluster),
                    StormUiJson.supervisorSummary(cluster), StormUiJson.topologySummary(cluster)));
            }
            case "/topology.html" -> {
                String token = actionsEnabled ? tokens.forPage(request, response) : null;
                UiService.Panel panel = service.whalePanel(required(id, "id"));
                html(response, TopologyPage.render(service.topology(id, window), panel.pids(), fragment(panel), token));
            }
            case "/whale.html" -> {
                UiService.Panel panel = service.whalePanel(required(id, "id"));
                html(response, WhalePanelFragment.page(String.valueOf(panel.doc().get("name")), id, fragment(panel)));
            }
            case "/whale-panel.html" -> html(response, fragment(service.whalePanel(required(id, "id"))));
            case "/api/v1/cluster/summary" -> json(response, StormUiJson.clusterSummary(service.nimbus().cluster()));
            case "/api/v1/nimbus/summary" -> json(response, StormUiJson.nimbusSummary(service.nimbus().cluster()));
            case "/api/v1/supervisor/summary" -> json(response, StormUiJson.supervisorSummary(service.nimbus().cluster()));
            case "/api/v1/topology/summary" -> json(response, StormUiJson.topologySummary(service.nimbus().cluster()));
            case "/api/v1/whale/prometheus-targets" -> json(response, service.prometheusTargets());
            default -> {
                if ((m = TOPOLOGY.matcher(path)).matches()) {
                    json(response, service.topology(m.group(1), window));
                } else if ((m = WHALE_TOPOLOGY.matcher(path)).matches()) {
                    UiService.Panel panel = service.whalePanel(m.group(1));
                    if (m.group(2) == null) {
                        json(response, panel.doc());
                    } else {
                        send(response, 200, "image/svg+xml", TreeSvg.render(panel.trees()));
                    }
                } else {
                    throw new UiError(404, "nothing at " + path);
                }
            }
        }
    }

    /** The cluster gauges, as the Prometheus client's servlet writes them (whatever format the scraper accepts). */
    private void scrape(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            metrics.service((ServletRequest) request, (ServletResponse) response);
        } catch (ServletException e) {
            throw new IOException(e);
        }
    }

    private static String fragment(UiService.Panel panel) {
        return WhalePanelFragment.render(panel.doc(), TreeSvg.render(panel.trees()));
    }

    /**
     * Storm UI's topology actions; a form of the page (field redirect) is sent back to the page instead of JSON. The form
     * is read, the switch, the page's origin, its session's token and the user checked before Nimbus is asked. A browser
     * names the page's origin on every POST, so a request naming none is a script client (curl, Storm's REST users),
     * which needs no page's token.
     */
    private void post(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        Matcher m = ACTION.matcher(path);
        if (!m.matches()) {
            throw new UiError(404, "no action at " + path);
        }
        Map<String, String> form = query(actionForm(request));
        if (!actionsEnabled) {
            throw new UiError(403, "topology actions are disabled on this UI (ui.actions.enabled: false)");
        }
        String origin = request.getHeader("Origin");
        String referer = request.getHeader("Referer");
        Optional<String> refusal = SameOrigin.refusal(origin, referer, request.getHeader("Host"));
        if (refusal.isEmpty() && (origin != null || referer != null)) {
            refusal = tokens.refusal(request, form.get(ActionToken.FIELD));
        }
        if (refusal.isPresent()) {
            throw new UiError(403, refusal.get());
        }
        UiService service = admitted(request, path, null);
        String id = m.group(1);
        String verb = m.group(2);
        int wait = m.group(3) == null ? 30 : Integer.parseInt(m.group(3));
        switch (verb) {
            case "activate" -> service.nimbus().activate(id);
            case "deactivate" -> service.nimbus().deactivate(id);
            case "rebalance" -> service.nimbus().rebalance(id, wait);
            default -> service.nimbus().kill(id, wait);
        }
        LOG.info("{} of topology {} asked from {} by {}", verb, id, request.getRemoteAddr(),
            ReqContext.context().principal() == null ? "an unauthenticated user" : ReqContext.context().principal().getName());
        if (form.containsKey("redirect")) {
            response.setHeader("Location", verb.equals("kill") ? "/" : "/topology.html?id=" + id);
            send(response, 303, "text/plain", verb + " asked");
        } else {
            json(response, Map.of("topologyOperation", verb, "topologyId", id, "status", "success"));
        }
    }

    /** The action's form, read whole before anything is done; a body beyond {@link UiServer#MAX_ACTION_BODY_BYTES} is refused. */
    private static String actionForm(HttpServletRequest request) throws IOException {
        byte[] body = request.getInputStream().readNBytes(UiServer.MAX_ACTION_BODY_BYTES + 1);
        if (body.length > UiServer.MAX_ACTION_BODY_BYTES) {
            throw new UiError(413, "a topology action's form holds at most " + UiServer.MAX_ACTION_BODY_BYTES + " bytes");
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    private static String required(String value, String name) {
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

    private static void html(HttpServletResponse response, String page) throws IOException {
        send(response, 200, "text/html; charset=utf-8", page);
    }

    private static void json(HttpServletResponse response, Object doc) throws IOException {
        send(response, 200, "application/json", JSON.writeValueAsString(doc));
    }

    static void send(HttpServletResponse response, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(contentType);
        response.setContentLength(bytes.length);
        try (OutputStream out = response.getOutputStream()) {
            out.write(bytes);
        }
    }
}
