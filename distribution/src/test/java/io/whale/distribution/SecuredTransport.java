package io.whale.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.storm.shade.org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * Storm's SASL and TLS between workers, configured as an operator configures them for Whale (the README's Security
 * section), and what a test checks of them: that they were in effect, and that WOC's frame window held under them.
 */
final class SecuredTransport {
    /** The cluster's ZooKeeper identity: with it Nimbus gives each topology the secret its workers' SASL uses. */
    static final String CLUSTER_SECRET = "whale:cluster-secret";
    /** What Storm's SASL client handler logs once a worker's connection is up (SaslStormClientHandler). */
    static final String SASL_CONNECTED = "SaslStormClientHandler";
    /** What Storm's Netty transport logs when it builds a worker's TLS client (NettyTlsUtils). */
    static final String TLS_CLIENT = "Building SSL context for Netty client";
    private static final String STORE_PASSWORD = "whale-workers";

    private SecuredTransport() {
    }

    /**
     * A cluster's settings for SASL between workers: ZooKeeper authentication (digest, {@link #CLUSTER_SECRET}, the
     * super user it implies), without which Nimbus drops a topology's secret, and {@code
     * storm.messaging.netty.authentication}.
     */
    static List<String> saslCluster() {
        try {
            return List.of("storm.zookeeper.auth.scheme=digest", "storm.zookeeper.auth.payload=" + CLUSTER_SECRET,
                "storm.zookeeper.superACL=digest:" + DigestAuthenticationProvider.generateDigest(CLUSTER_SECRET),
                "storm.messaging.netty.authentication=true");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A topology's settings for TLS between its workers, with one key and certificate for all of them. On a cluster with
     * SASL on, Nimbus keeps SASL on for the topology too (Storm enforces the cluster's), so it runs TLS and SASL.
     */
    static List<String> tlsTopology(Path keystore) {
        List<String> settings = new ArrayList<>(List.of("storm.messaging.netty.tls.enable=true"));
        for (String store : List.of("keystore", "truststore", "client.keystore", "client.truststore")) {
            settings.add("storm.messaging.netty.tls." + store + ".path=" + keystore);
            settings.add("storm.messaging.netty.tls." + store + ".password=" + STORE_PASSWORD);
        }
        return settings;
    }

    /**
     * The workers' key store under {@code dir}, made with the JDK's keytool: one key and certificate for every worker,
     * naming the {@code addresses} the workers reach each other at (each worker's TLS client checks it, patch 0031).
     */
    static Path keystore(Path dir, List<String> addresses) throws IOException, InterruptedException {
        Path keystore = dir.resolve("whale-workers.p12");
        Files.deleteIfExists(keystore);
        String names = String.join(",", addresses.stream().map(a -> "ip:" + a).toList());
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
            "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD, "-alias", "worker",
            "-keyalg", "EC", "-dname", "CN=whale-workers", "-ext", "SAN=" + names, "-validity", "2").inheritIO().start();
        try {
            assertTrue(keytool.waitFor(1, TimeUnit.MINUTES), "keytool did not finish");
            assertEquals(0, keytool.exitValue(), "keytool failed");
        } finally {
            keytool.destroy();
        }
        return keystore;
    }

    /**
     * WOC's frame window held in {@code run}: a sender waited for credits ({@code woc-window-blocked-ms} above 0) or a
     * window was seen counting tuples in flight (a window never started, as with SASL before patch 0026, does neither),
     * and no window was ever seen counting more tuples in flight than {@code whale.woc.window.tuples} admits.
     */
    static void assertWindowHeld(WorkerLogs logs, String run, int windowTuples) {
        long inFlight = logs.largestGauge("woc-window-in-flight-to-\\S+");
        // Which holds the spout first, its window or Storm's flag for the slow task's full queue, is a race (credit returns
        // once a frame is in the executors' queues): in CI's run of 804c260, over SASL, no sender waited for its window
        // (woc-window-blocked-ms 0) while it counted 10 tuples in flight.
        assertTrue(logs.largestGauge("woc-window-blocked-ms") > 0 || inFlight > 0,
            run + ": the frame window neither held a sender nor counted a frame in flight: not enforced");
        assertTrue(inFlight >= 0 && inFlight <= windowTuples, run + ": " + inFlight + " tuples in flight to a worker, the window admits "
            + windowTuples);
    }
}
