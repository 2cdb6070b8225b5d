package io.whale.rdma.channel;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sender and receiver as on two emulated hosts of {@code whale local-cluster up --hosts}: each in a network namespace of
 * its own (entered with {@code ip netns exec}, as the hosts' daemons are, so that UCX sees the host's own devices),
 * joined by a veth pair, with the UCX transports the emulated cluster allows ({@code tcp,sm,self}: shared memory for
 * the workers of one host). The namespaces share the machine's memory, and UCX's shared-memory transports reach across
 * them (ucx_perftest between two such namespaces moved 100 MB with 6 KB on the link); the transport's endpoints ask for
 * peer error handling, which those transports lack, so UCX must carry the data over TCP on the link, where the
 * benchmark's shaping applies. A process that sees only loopback (entered with {@code nsenter --net}, which keeps the
 * machine's {@code /sys}) gets no TCP device for its peer, falls back to endpoints without error handling, and UCX then
 * moves everything through shared memory, past the link: the paper benchmark's RDMA rows are "UCX over TCP between
 * hosts" only while this holds.
 */
@Timeout(120)
class EmulatedHostsChannelTest {
    private static final String SECRET = "emulated-hosts-topology";
    private static final String EMULATED_HOSTS_TLS = "tcp,sm,self";
    private static final long SEED = 31;
    private static final int MAX_LENGTH = 4000;
    private static final int COUNT = 1500;

    @Test
    void shouldCarryTheDataOverTheLinkBetweenHostsThoughSharedMemoryIsAllowed() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root for network namespaces");
        String suffix = String.valueOf(ProcessHandle.current().pid());
        String receiverHost = "whale-ucx-r-" + suffix;
        String senderHost = "whale-ucx-s-" + suffix;
        List<String> created = new ArrayList<>();
        try {
            for (String ns : List.of(receiverHost, senderHost)) {
                run("ip", "netns", "add", ns);
                created.add(ns);
                run("ip", "-n", ns, "link", "set", "lo", "up");
            }
            run("ip", "-n", receiverHost, "link", "add", "wr" + suffix, "type", "veth", "peer", "name", "ws" + suffix,
                "netns", senderHost);
            run("ip", "-n", receiverHost, "addr", "add", "10.241.0.1/24", "dev", "wr" + suffix);
            run("ip", "-n", senderHost, "addr", "add", "10.241.0.2/24", "dev", "ws" + suffix);
            run("ip", "-n", receiverHost, "link", "set", "wr" + suffix, "up");
            run("ip", "-n", senderHost, "link", "set", "ws" + suffix, "up");
            // UCX takes only the devices that carry at its start, and a veth pair's carrier comes a moment after it is up
            await().atMost(Duration.ofSeconds(10)).until(() -> operState(receiverHost, "wr" + suffix).equals("up")
                && operState(senderHost, "ws" + suffix).equals("up"));
            Map<String, String> env = Map.of("UCX_TLS", EMULATED_HOSTS_TLS);
            long payload = 0;
            for (int i = 0; i < COUNT; i++) {
                payload += TestMessages.length(SEED, i, MAX_LENGTH);
            }
            try (ChildJvm receiver = ChildJvm.start(List.of("ip", "netns", "exec", receiverHost), ReceiverProcess.class, env,
                    "0", SECRET, String.valueOf(SEED), String.valueOf(MAX_LENGTH), "0", "10.241.0.1")) {
                int port = Integer.parseInt(receiver.awaitLine(line -> line.startsWith("LISTENING "), Duration.ofSeconds(30))
                    .split(" ")[1]);
                long received = receivedBytes(receiverHost, "wr" + suffix);
                try (ChildJvm sender = ChildJvm.start(List.of("ip", "netns", "exec", senderHost), SenderProcess.class, env,
                        String.valueOf(port), SECRET, String.valueOf(SEED), String.valueOf(MAX_LENGTH), String.valueOf(COUNT),
                        String.valueOf(128 * 1024), String.valueOf(16 * 1024), "10.241.0.1")) {
                    String drained = sender.awaitLine(line -> line.startsWith("DRAINED") || line.startsWith("NOT-"),
                        Duration.ofSeconds(90));
                    assertTrue(drained.startsWith("DRAINED " + COUNT), drained);
                    assertEquals(0, sender.awaitExit(Duration.ofSeconds(20)));
                }
                long overTheLink = receivedBytes(receiverHost, "wr" + suffix) - received;
                assertTrue(receiver.lines().stream().noneMatch(line -> line.startsWith("ERROR")), receiver.describe());
                assertTrue(overTheLink >= payload, "the receiver's link took " + overTheLink + " bytes for " + payload
                    + " bytes of messages: UCX carried them another way (shared memory?)");
            }
        } finally {
            for (String ns : created) {
                run("ip", "netns", "del", ns);
            }
        }
    }

    private static long receivedBytes(String ns, String device) throws IOException, InterruptedException {
        return Long.parseLong(run("ip", "netns", "exec", ns, "cat", "/sys/class/net/" + device + "/statistics/rx_bytes").trim());
    }

    private static String operState(String ns, String device) throws IOException, InterruptedException {
        return run("ip", "netns", "exec", ns, "cat", "/sys/class/net/" + device + "/operstate").trim();
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
            assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + output);
            return output;
        } finally {
            process.destroyForcibly();
        }
    }
}
