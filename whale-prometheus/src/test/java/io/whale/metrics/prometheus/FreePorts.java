package io.whale.metrics.prometheus;

import io.whale.config.PortRange;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Ports of 127.0.0.1 nothing listens on, below the kernel's ephemeral range (where outgoing connections take theirs). */
final class FreePorts {
    private FreePorts() {
    }

    /** {@code count} consecutive free ports. */
    static PortRange range(int count) throws IOException {
        int ephemeralLow = ephemeralLow();
        SplittableRandom random = new SplittableRandom();
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = random.nextInt(20_000, ephemeralLow - count);
            PortRange range = new PortRange(first, first + count - 1);
            if (allFree(range)) {
                return range;
            }
        }
        throw new IOException("no " + count + " consecutive free ports on 127.0.0.1 below " + ephemeralLow);
    }

    /** Whether each port of {@code range} can be bound now. */
    static boolean allFree(PortRange range) {
        for (int port : range) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private static int ephemeralLow() {
        try {
            return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0)
                .trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }
}
