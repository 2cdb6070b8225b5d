package io.whale.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.ui.login.PasswordLoginFilter;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The UI daemon when the cluster is not there: every answer names the problem, none is a stack trace. */
class UiServerTest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private UiServer ui;

    @BeforeEach
    void startWithoutNimbus() throws IOException {
        ui = new UiServer(withoutNimbus(), 0);
        ui.start();
    }

    private static Map<String, Object> withoutNimbus() throws IOException {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("nimbus.seeds", List.of("127.0.0.1"));
        conf.put("nimbus.thrift.port", unusedPort());
        conf.put("ui.host", "127.0.0.1");
        return conf;
    }

    @AfterEach
    void stop() {
        ui.close();
    }

    @Test
    void shouldAnswerTheJsonApiWithTheReasonWhenNimbusIsUnreachable() throws Exception {
        HttpResponse<String> response = get("/api/v1/cluster/summary");

        assertEquals(503, response.statusCode());
        assertTrue(response.body().contains("\"error\":\"Nimbus at 127.0.0.1:") && response.body().contains("does not answer"),
            response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void shouldShowTheReasonOnThePageNotAStackTrace() throws Exception {
        HttpResponse<String> response = get("/");

        assertEquals(503, response.statusCode());
        assertTrue(response.body().contains("<div class=\"error\" role=\"alert\">Nimbus at 127.0.0.1:"), response.body());
        assertFalse(response.body().contains("at org.apache") || response.body().contains("Exception:"), response.body());
    }

    @Test
    void shouldReportNimbusDownInTheClusterGauges() throws Exception {
        HttpResponse<String> response = get("/metrics");

        assertEquals(200, response.statusCode());
        assertTrue(response.body().lines().anyMatch(l -> l.matches("whale_nimbus_up 0(\\.0)?")), response.body());
    }

    @Test
    void shouldRefuseAWindowStormsUiDoesNotHave() throws Exception {
        HttpResponse<String> response = get("/api/v1/topology/t-1-1?window=5");

        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("window must be one of [600, 10800, 86400, :all-time], got '5'"), response.body());
    }

    @Test
    void shouldSayWhatIsMissingOnAPageWithoutItsTopology() throws Exception {
        assertEquals(400, get("/topology.html").statusCode());
        assertTrue(get("/topology.html").body().contains("the page needs ?id="));
        assertEquals(404, get("/nothing-here").statusCode());
    }

    @Test
    void shouldNameTheBadPortSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> UiServer.port(new String[0], Map.of("ui.port", "eighty")));
        assertTrue(e.getMessage().contains("ui.port (or --port) must be a port number 1..65535, got 'eighty'"), e.getMessage());
        assertEquals(9090, UiServer.port(new String[] {"--port", "9090"}, Map.of("ui.port", 8080)));
        assertEquals(8080, UiServer.port(new String[0], Map.of()));
    }

    @Test
    void shouldSendItsSecurityHeadersWithEveryAnswer() throws Exception {
        for (HttpResponse<String> response : List.of(get("/"), get("/api/v1/cluster/summary"), get("/nothing-here"))) {
            assertEquals("DENY", response.headers().firstValue("X-Frame-Options").orElse(""), response.uri().toString());
            assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElse(""));
            assertTrue(response.headers().firstValue("Content-Security-Policy").orElse("").contains("frame-ancestors 'none'"));
        }
    }

    @Test
    void shouldRefuseATopologyActionPostedFromAnotherSitesPageBeforeAskingNimbus() throws Exception {
        HttpResponse<String> forged = post("/api/v1/topology/t-1-1/kill/0", "http://evil.example", "redirect=page");

        assertEquals(403, forged.statusCode(), forged.body());
        assertTrue(forged.body().contains("this one came from http://evil.example"), forged.body());
        // a client naming no origin (a script, not a page) reaches Nimbus (down here: 503)
        assertEquals(503, post("/api/v1/topology/t-1-1/kill/0", null, "").statusCode());
    }

    @Test
    void shouldRefuseAnActionFromTheUisOwnPageWithoutItsSessionsTokenBeforeAskingNimbus() throws Exception {
        HttpResponse<String> tokenless = post("/api/v1/topology/t-1-1/kill/0", "http://127.0.0.1:" + ui.port(), "redirect=page");

        assertEquals(403, tokenless.statusCode(), tokenless.body());
        assertTrue(tokenless.body().contains("needs the session the UI's page opened"), tokenless.body());
        HttpResponse<String> page = get("/topology.html?id=t-1-1");
        assertTrue(page.headers().firstValue("Set-Cookie").orElse("").matches(ActionToken.COOKIE + "=[^;]+;.*HttpOnly.*"),
            "the topology page opens a session: " + page.headers().map());
    }

    @Test
    void shouldRefuseAnActionFormLargerThanAnyThePagesSend() throws Exception {
        HttpResponse<String> response = post("/api/v1/topology/t-1-1/kill/0", null, "x".repeat(UiServer.MAX_ACTION_BODY_BYTES + 1));

        assertEquals(413, response.statusCode(), response.body());
        assertTrue(response.body().contains("at most " + UiServer.MAX_ACTION_BODY_BYTES + " bytes"), response.body());
    }

    @Test
    void shouldRefuseToStartWithStormOnesUiAllowListsWhichNoStormTwoUiReads() {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("ui.host", "127.0.0.1");
        conf.put("ui.users", List.of("alice"));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new UiServer(conf, 0));

        assertTrue(e.getMessage().startsWith("ui.users: [alice]: Storm 1's allow-lists of its UI"), e.getMessage());
        assertEquals(List.of(), UiSecurity.unhonoured(Utils.readDefaultConfig()), "Storm's defaults ask for nothing");
    }

    /**
     * ui.filter with ui.filter.params as an operator configures Storm's UI: an anonymous request, an action or the gauges,
     * is answered by the login filter (401, with the UI's headers) before anything is asked; a logged-in one reaches the
     * UI, which asks Nimbus (503: there is none here).
     */
    @Test
    void shouldPutTheConfiguredLoginFilterBeforeEveryPageActionAndGauge() throws Exception {
        restart(Map.of("ui.filter", PasswordLoginFilter.class.getName(), "ui.filter.params", Map.of("users", "alice:wonderland")));

        for (HttpResponse<String> anonymous : List.of(get("/"), get("/metrics"), get("/api/v1/topology/t-1-1"),
            post("/api/v1/topology/t-1-1/kill/0", null, ""))) {
            assertEquals(401, anonymous.statusCode(), anonymous.uri() + ": " + anonymous.body());
            assertEquals("DENY", anonymous.headers().firstValue("X-Frame-Options").orElse(""), anonymous.uri().toString());
        }
        assertEquals(401, get("/api/v1/cluster/summary", PasswordLoginFilter.basic("alice", "guess")).statusCode());
        HttpResponse<String> loggedIn = get("/api/v1/cluster/summary", PasswordLoginFilter.basic("alice", "wonderland"));
        assertEquals(503, loggedIn.statusCode(), loggedIn.body());
        assertTrue(loggedIn.body().contains("does not answer"), loggedIn.body());
    }

    @Test
    void shouldRefuseAnActionToAnAnonymousUserWhereNimbusAuthorizerDecidesBeforeAskingNimbus() throws Exception {
        restart(Map.of("nimbus.authorizer", "org.apache.storm.security.auth.authorizer.SimpleACLAuthorizer"));

        HttpResponse<String> kill = post("/api/v1/topology/t-1-1/kill/0", null, "");

        assertEquals(403, kill.statusCode(), kill.body());
        assertTrue(kill.body().contains("killTopology is refused to a user nobody authenticated"), kill.body());
    }

    @Test
    void shouldNameAMissingLoginFilterClassAtStart() {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put("ui.filter", "org.example.NoSuchFilter");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new UiServer(conf, 0));

        assertTrue(e.getMessage().startsWith("ui.filter: org.example.NoSuchFilter is not a jakarta.servlet.Filter on whale ui's class path"),
            e.getMessage());
    }

    /** ui.https.port with a key store: the UI answers over TLS there, and (ui.disable.http.binding, true by default) not in plain HTTP. */
    @Test
    void shouldServeOverTlsOnlyWhenAnHttpsPortIsConfigured() throws Exception {
        Path keystore = Files.createTempDirectory("ui-tls").resolve("ui.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
            "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", "changeit", "-alias", "ui", "-keyalg", "EC",
            "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1", "-validity", "2").inheritIO().start();
        try {
            assertEquals(0, keytool.waitFor(), "keytool");
        } finally {
            keytool.destroy();
        }
        int httpsPort = unusedPort();
        restart(Map.of("ui.https.port", httpsPort, "ui.https.keystore.path", keystore.toString(), "ui.https.keystore.type", "PKCS12",
            "ui.https.keystore.password", "changeit"));
        KeyStore trusted = KeyStore.getInstance(keystore.toFile(), "changeit".toCharArray());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        HttpClient client = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();

        HttpResponse<String> overTls = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + httpsPort + "/api/v1/cluster/summary"))
            .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(503, overTls.statusCode(), overTls.body());
        assertEquals(httpsPort, ui.port(), "the TLS connector is the only one");
        assertEquals(1, ui.urls().size(), ui.urls().toString());
        assertTrue(ui.urls().get(0).startsWith("https://"), ui.urls().toString());
    }

    @Test
    void shouldRefuseTopologyActionsWhenTheyAreDisabledBeforeAskingNimbus() throws Exception {
        restart(Map.of("ui.actions.enabled", false));

        HttpResponse<String> kill = post("/api/v1/topology/t-1-1/kill/0", null, "");

        assertEquals(403, kill.statusCode(), kill.body());
        assertTrue(kill.body().contains("topology actions are disabled on this UI (ui.actions.enabled: false)"), kill.body());
    }

    /**
     * DNS rebinding: another site's name made to lead to the UI. Its page's request names that site as Host and as Origin,
     * which the same-origin check alone would pass; it is refused before the cluster is read or Nimbus asked (503 here).
     */
    @Test
    void shouldRefuseARequestNamingAnotherSitesHostBeforeAskingNimbus() throws Exception {
        String rebound = "rebound.evil.example:" + ui.port();
        for (String request : List.of("GET / HTTP/1.1\r\nHost: " + rebound + "\r\n\r\n",
            "GET /metrics HTTP/1.1\r\nHost: " + rebound + "\r\n\r\n",
            "POST /api/v1/topology/t-1-1/kill/0 HTTP/1.1\r\nHost: " + rebound + "\r\nOrigin: http://" + rebound
                + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n\r\n")) {
            String answer = raw(request);
            assertTrue(answer.startsWith("HTTP/1.1 403"), request + " -> " + answer);
            assertTrue(answer.contains("this UI is not reached as 'rebound.evil.example'"), answer);
            assertTrue(answer.contains("X-frame-options: DENY") || answer.contains("X-Frame-Options: DENY"), answer);
        }
        assertTrue(raw("GET / HTTP/1.1\r\nHost: localhost:" + ui.port() + "\r\n\r\n").startsWith("HTTP/1.1 503"), "its own name");
    }

    @Test
    void shouldCloseTheConnectionOfAClientThatDoesNotFinishItsRequest() throws Exception {
        try (Socket slow = new Socket("127.0.0.1", ui.port())) {
            slow.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n").getBytes(StandardCharsets.US_ASCII));
            slow.setSoTimeout((UiServer.IDLE_SECONDS + 5) * 1000);
            long start = System.nanoTime();

            assertEquals(-1, slow.getInputStream().read(), "closed without an answer");
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            assertTrue(seconds >= UiServer.IDLE_SECONDS - 1, "closed after " + seconds + " s");
        }
    }

    /** One request as bytes on a connection of its own (HttpClient will not send another Host), the answer until closed. */
    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", ui.port())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write((request.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")).getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private HttpResponse<String> post(String path, String origin, String form) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ui.port() + path)).timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        if (origin != null) {
            request.header("Origin", origin);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ui.port() + path)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path, String authorization) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ui.port() + path)).timeout(Duration.ofSeconds(30))
            .header("Authorization", authorization).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The UI of {@link #startWithoutNimbus} stopped, one with {@code settings} besides started in its place. */
    private void restart(Map<String, Object> settings) throws IOException {
        ui.close();
        Map<String, Object> conf = withoutNimbus();
        conf.putAll(settings);
        ui = new UiServer(conf, 0);
        ui.start();
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
