package io.whale.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.storm.Config;
import org.apache.storm.messaging.IConnection;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.messaging.netty.Context;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Patch 0031: a worker's Netty client and server with Storm's TLS on, in one JVM. Without the patch no handshake
 * succeeds (Netty 4.2 verifies the server's name and Storm gave its client none to verify against).
 */
class WorkerTlsTest {
    private static final String PASSWORD = "changeit";
    @TempDir
    Path dir;

    @Test
    void shouldCarryTuplesToAServerWhoseCertificateNamesTheAddressConnectedTo() throws Exception {
        assertEquals(List.of("over TLS"), delivered(keystore("named", "SAN=ip:127.0.0.1"), Map.of()));
    }

    @Test
    void shouldRefuseAServerWhoseCertificateNamesAnotherAddressUnlessVerificationIsOff() throws Exception {
        Path other = keystore("other", "SAN=ip:10.9.9.9");

        assertEquals(List.of(), delivered(other, Map.of()), "a certificate for another address");
        assertEquals(List.of("over TLS"), delivered(other, Map.of(WorkerTls.HOSTNAME_VERIFICATION, false)));
    }

    /** What a server receives of one message a client sends it over TLS with {@code keystore} on both sides, within a few seconds. */
    private static List<String> delivered(Path keystore, Map<String, Object> extra) {
        Map<String, Object> conf = new HashMap<>(Utils.readDefaultConfig());
        conf.put(Config.TOPOLOGY_NAME, "worker-tls");
        conf.put(Config.STORM_MESSAGING_NETTY_TLS_ENABLE, true);
        for (String store : List.of("keystore", "truststore", "client.keystore", "client.truststore")) {
            conf.put("storm.messaging.netty.tls." + store + ".path", keystore.toString());
            conf.put("storm.messaging.netty.tls." + store + ".password", PASSWORD);
        }
        conf.putAll(extra);
        List<String> received = new CopyOnWriteArrayList<>();
        Context context = new Context();
        context.prepare(conf);
        try {
            IConnection server = context.bind("worker-tls-1", 0, batch -> batch.forEach(m -> received.add(new String(m.message()))), null);
            IConnection client = context.connect("worker-tls-1", "127.0.0.1", server.getPort(), new AtomicBoolean[] {new AtomicBoolean()});
            List<TaskMessage> one = new ArrayList<>(List.of(new TaskMessage(1, "over TLS".getBytes())));
            await().pollDelay(Duration.ZERO).atMost(Duration.ofSeconds(5)).until(() -> {
                if (received.isEmpty()) {
                    client.send(one.iterator());
                }
                return !received.isEmpty();
            });
        } catch (org.awaitility.core.ConditionTimeoutException nothing) {
            // a refused handshake delivers nothing: what the caller asserts
        } finally {
            context.term();
        }
        return List.copyOf(received.stream().distinct().toList());
    }

    private Path keystore(String name, String san) throws Exception {
        Path keystore = dir.resolve(name + ".p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
            "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-alias", "worker", "-keyalg", "EC",
            "-dname", "CN=" + name, "-ext", san, "-validity", "2").inheritIO().start();
        try {
            assertEquals(true, keytool.waitFor(1, TimeUnit.MINUTES));
            assertEquals(0, keytool.exitValue(), "keytool");
        } finally {
            keytool.destroy();
        }
        return keystore;
    }
}
