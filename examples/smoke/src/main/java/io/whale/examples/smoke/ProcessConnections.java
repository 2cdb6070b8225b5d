package io.whale.examples.smoke;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The remote addresses of this process's established TCP connections, read from Linux's /proc: the
 * socket inodes among /proc/self/fd matched against /proc/self/net/tcp and tcp6. Empty where /proc is absent.
 */
final class ProcessConnections {
    private static final String ESTABLISHED = "01";
    private static final String IPV6_LOOPBACK = "00000000000000000000000001000000";

    private ProcessConnections() {
    }

    static Set<String> remoteAddresses() {
        Set<String> inodes = socketInodes();
        Set<String> remotes = new TreeSet<>();
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[3].equals(ESTABLISHED) && inodes.contains(f[9])) {
                        remotes.add(decode(f[2].substring(0, f[2].indexOf(':'))));
                    }
                }
            } catch (IOException | RuntimeException noProcTable) {
                // Not Linux, or no IPv6 table: nothing to report from it.
            }
        }
        return remotes;
    }

    private static Set<String> socketInodes() {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // The descriptor went away while listing: not a connection to report.
                }
            });
        } catch (IOException noProc) {
            return Set.of();
        }
        return inodes;
    }

    /** /proc/net/tcp holds addresses as little-endian hex words: 0100007F is 127.0.0.1. Other IPv6 stays hex. */
    static String decode(String hex) {
        if (hex.length() == 8) {
            return ipv4(hex);
        }
        if (hex.startsWith("0000000000000000FFFF0000")) {
            return ipv4(hex.substring(24));
        }
        return hex.equals(IPV6_LOOPBACK) ? "::1" : "ipv6:" + hex;
    }

    private static String ipv4(String hex) {
        long v = Long.parseLong(hex, 16);
        return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff);
    }
}
