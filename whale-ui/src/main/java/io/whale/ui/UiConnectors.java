package io.whale.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.DaemonConfig;
import org.apache.storm.utils.ObjectReader;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The UI's listening sockets, from Storm's UI settings: plain HTTP on the UI's port of {@code ui.host}; with {@code
 * ui.https.port} TLS there too, its key from {@code ui.https.keystore.*} (and client certificates checked against {@code
 * ui.https.truststore.*} when {@code ui.https.want.client.auth} or {@code ui.https.need.client.auth}), and then no plain
 * HTTP unless {@code ui.disable.http.binding: false} — as Storm's UI binds them.
 */
final class UiConnectors {
    private UiConnectors() {
    }

    static List<ServerConnector> of(Server server, Map<String, Object> conf, int port) {
        String host = String.valueOf(conf.getOrDefault(DaemonConfig.UI_HOST, "0.0.0.0"));
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(ObjectReader.getInt(conf.get(DaemonConfig.UI_HEADER_BUFFER_BYTES), 4096));
        List<ServerConnector> connectors = new ArrayList<>();
        int httpsPort = httpsPort(conf);
        if (httpsPort <= 0 || !ObjectReader.getBoolean(conf.get(DaemonConfig.UI_DISABLE_HTTP_BINDING), true)) {
            connectors.add(connector(new ServerConnector(server, 1, 1, new HttpConnectionFactory(http)), host, port));
        }
        if (httpsPort > 0) {
            HttpConfiguration https = new HttpConfiguration(http);
            https.setSecureScheme("https");
            https.setSecurePort(httpsPort);
            https.addCustomizer(new SecureRequestCustomizer());
            connectors.add(connector(new ServerConnector(server, 1, 1,
                new SslConnectionFactory(tls(conf), "http/1.1"), new HttpConnectionFactory(https)), host, httpsPort));
        }
        return connectors;
    }

    /** What the UI binds, for a message: {@code port P} or {@code TLS port P}, or both. */
    static String describe(Map<String, Object> conf, int port) {
        int httpsPort = httpsPort(conf);
        if (httpsPort <= 0) {
            return "port " + port + " (ui.port)";
        }
        String tls = "TLS port " + httpsPort + " (ui.https.port)";
        return ObjectReader.getBoolean(conf.get(DaemonConfig.UI_DISABLE_HTTP_BINDING), true) ? tls : "port " + port + " or " + tls;
    }

    private static int httpsPort(Map<String, Object> conf) {
        return ObjectReader.getInt(conf.get(DaemonConfig.UI_HTTPS_PORT), 0);
    }

    private static ServerConnector connector(ServerConnector connector, String host, int port) {
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(UiServer.IDLE_SECONDS * 1000L);
        return connector;
    }

    private static SslContextFactory.Server tls(Map<String, Object> conf) {
        String keystore = (String) conf.get(DaemonConfig.UI_HTTPS_KEYSTORE_PATH);
        if (keystore == null || keystore.isBlank()) {
            throw new IllegalArgumentException(DaemonConfig.UI_HTTPS_PORT + " is set but " + DaemonConfig.UI_HTTPS_KEYSTORE_PATH
                + " is not: the UI has no key to serve TLS with");
        }
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(keystore);
        tls.setKeyStoreType(String.valueOf(conf.getOrDefault(DaemonConfig.UI_HTTPS_KEYSTORE_TYPE, "JKS")));
        tls.setKeyStorePassword(String.valueOf(conf.getOrDefault(DaemonConfig.UI_HTTPS_KEYSTORE_PASSWORD, "")));
        if (conf.get(DaemonConfig.UI_HTTPS_KEY_PASSWORD) != null) {
            tls.setKeyManagerPassword(String.valueOf(conf.get(DaemonConfig.UI_HTTPS_KEY_PASSWORD)));
        }
        if (conf.get(DaemonConfig.UI_HTTPS_TRUSTSTORE_PATH) != null) {
            tls.setTrustStorePath(String.valueOf(conf.get(DaemonConfig.UI_HTTPS_TRUSTSTORE_PATH)));
            tls.setTrustStoreType(String.valueOf(conf.getOrDefault(DaemonConfig.UI_HTTPS_TRUSTSTORE_TYPE, "JKS")));
            tls.setTrustStorePassword(String.valueOf(conf.getOrDefault(DaemonConfig.UI_HTTPS_TRUSTSTORE_PASSWORD, "")));
        }
        tls.setWantClientAuth(ObjectReader.getBoolean(conf.get(DaemonConfig.UI_HTTPS_WANT_CLIENT_AUTH), false));
        tls.setNeedClientAuth(ObjectReader.getBoolean(conf.get(DaemonConfig.UI_HTTPS_NEED_CLIENT_AUTH), false));
        return tls;
    }
}
