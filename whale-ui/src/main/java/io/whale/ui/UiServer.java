package io.whale.ui;

import io.prometheus.metrics.exporter.servlet.jakarta.PrometheusMetricsServlet;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.whale.ui.metrics.ClusterGauges;
import io.whale.ui.source.NimbusGateway;
import io.whale.ui.source.ZooKeeperView;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.net.BindException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.storm.utils.Utils;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code whale ui [--port PORT]}: the UI daemon, in the foreground like {@code storm ui}, on {@code ui.port} (8080 unless
 * configured) of {@code ui.host} (every interface unless configured), and on {@code ui.https.port} over TLS when set, as
 * Storm's UI ({@link UiConnectors}). Every request passes {@link OwnNamesOnly}, then the operator's {@code ui.filter}
 * (with {@code ui.filter.params} as its init parameters: the login), then {@link UiServlet}, which admits it by
 * {@code nimbus.authorizer} and asks Nimbus as its user ({@link UiAccess}).
 */
public final class UiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UiServer.class);
    private static final String USAGE = "usage: whale ui [--port PORT]";
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
     * A connection that sends nothing for {@value #IDLE_SECONDS} s is closed. A client trickling its request holds no
     * thread meanwhile (Jetty reads without blocking one); at most {@value #MAX_CONNECTIONS} connections are open at once.
     */
    static final int IDLE_SECONDS = 10;
    static final int MAX_CONNECTIONS = 256;
    /** Jetty's acceptor and selector threads and the requests', sized for a UI a few people look at. */
    private static final int MAX_THREADS = 12;

    private final Server server;
    private final ZooKeeperView zookeeper;

    UiServer(Map<String, Object> conf, int port) throws IOException {
        List<String> unhonoured = UiSecurity.unhonoured(conf);
        if (!unhonoured.isEmpty()) {
            throw new IllegalArgumentException(UiSecurity.refusal(unhonoured));
        }
        UiAccess access = UiAccess.of(conf);
        UiHosts hosts = UiHosts.of(conf, Utils.hostname());
        this.zookeeper = new ZooKeeperView(conf);
        UiService service = new UiService(new NimbusGateway(conf), zookeeper);
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new ClusterGauges(() -> service.nimbus().cluster()));

        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("ui");
        this.server = new Server(threads);
        for (ServerConnector connector : UiConnectors.of(server, conf, port)) {
            server.addConnector(connector);
        }
        server.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, server));
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        EnumSet<DispatcherType> requests = EnumSet.of(DispatcherType.REQUEST);
        context.addFilter(new FilterHolder(new OwnNamesOnly(hosts)), "/*", requests);
        UiSecurity.loginFilter(conf).ifPresent(login -> context.addFilter(login, "/*", requests));
        context.addServlet(new ServletHolder(new UiServlet(service, access, new PrometheusMetricsServlet(registry),
            UiSecurity.actionsEnabled(conf))), "/");
        server.setHandler(context);
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
            ui.start();
        } catch (BindException e) {
            System.err.println("whale ui: " + UiConnectors.describe(conf, port) + " is taken by another process; choose another with"
                + " --port or ui.port (ui.https.port for TLS)");
            System.exit(1);
            return;
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("whale ui: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            ui.close();
            stopped.countDown();
        }, "ui-shutdown"));
        LOG.info("Whale UI on {} (Nimbus {}:{})", ui.urls(), conf.get("nimbus.seeds"), conf.get("nimbus.thrift.port"));
        System.out.println("Whale UI on " + String.join(" and ", ui.urls()));
        stopped.await();
    }

    /** Binds the connectors and serves; a port another process holds is a {@link BindException}. */
    void start() throws IOException {
        try {
            server.start();
        } catch (IOException e) {
            close();
            throw e.getCause() instanceof BindException bind ? bind : e;
        } catch (Exception e) {
            close();
            throw new IOException("whale ui could not start: " + NimbusGateway.rootMessage(e), e);
        }
    }

    /** The port bound by the first connector (the one asked for, or the one chosen for port 0). */
    int port() {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /** The UI's address per connector, {@code http://HOST:PORT/} or {@code https://HOST:PORT/}. */
    List<String> urls() throws IOException {
        String host = Utils.hostname();
        return Arrays.stream(server.getConnectors()).map(c -> (c.getProtocols().contains("ssl") ? "https" : "http") + "://"
            + host + ":" + ((ServerConnector) c).getLocalPort() + "/").toList();
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

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("the UI's server did not stop cleanly", e);
        } finally {
            zookeeper.close();
        }
    }
}
