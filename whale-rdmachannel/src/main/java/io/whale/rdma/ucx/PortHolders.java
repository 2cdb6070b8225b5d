package io.whale.rdma.ucx;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Says which TCP sockets of this host (Linux: {@code /proc/net/tcp}, {@code tcp6}, of the caller's network
 * namespace) use a local port, so a failed bind names what holds the port: a listener (a worker still running, or
 * another program) or a connection that took the port as its own end (an outgoing connection's ephemeral port).
 */
final class PortHolders {
    private static final Map<String, String> STATES = Map.ofEntries(Map.entry("01", "ESTABLISHED"),
            Map.entry("02", "SYN_SENT"), Map.entry("03", "SYN_RECV"), Map.entry("04", "FIN_WAIT1"),
            Map.entry("05", "FIN_WAIT2"), Map.entry("06", "TIME_WAIT"), Map.entry("07", "CLOSE"),
            Map.entry("08", "CLOSE_WAIT"), Map.entry("09", "LAST_ACK"), Map.entry("0A", "LISTEN"),
            Map.entry("0B", "CLOSING"));

    private PortHolders() {
    }

    /** What holds {@code port} here, for an error message; says so when it cannot tell. */
    static String describe(int port) {
        List<String> lines = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                lines.addAll(Files.readAllLines(Path.of(table)));
            } catch (IOException | UnsupportedOperationException e) {
                // not Linux, or no IPv6
            }
        }
        List<String> holders = holders(lines, port);
        if (holders.isEmpty()) {
            return "not held by any TCP socket of this network namespace now (released meanwhile)";
        }
        boolean listening = holders.stream().anyMatch(holder -> holder.startsWith("LISTEN"));
        return "held by " + String.join(", ", holders) + (listening
                ? " (another listener: a worker still running on this port, or another program)"
                : " (a connection whose own end is this port, e.g. an outgoing connection's ephemeral port: keep"
                        + " worker ports out of net.ipv4.ip_local_port_range)");
    }

    /** The sockets in {@code /proc/net/tcp}-format lines whose local port is {@code port}: "STATE local -> remote". */
    static List<String> holders(List<String> lines, int port) {
        List<String> holders = new ArrayList<>();
        for (String line : lines) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 4 || !fields[0].endsWith(":") || port(fields[1]) != port) {
                continue;
            }
            holders.add(STATES.getOrDefault(fields[3], fields[3]) + " " + address(fields[1])
                    + (fields[3].equals("0A") ? "" : " -> " + address(fields[2])));
        }
        return holders;
    }

    private static int port(String hexAddress) {
        int colon = hexAddress.indexOf(':');
        return colon < 0 ? -1 : Integer.parseInt(hexAddress.substring(colon + 1), 16);
    }

    /** The kernel prints each 32-bit word of the address in host (little-endian) order. */
    private static String address(String hexAddress) {
        int colon = hexAddress.indexOf(':');
        String hex = hexAddress.substring(0, colon);
        byte[] bytes = new byte[hex.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int i = 0; i < 4; i++) {
                int from = (word * 4 + 3 - i) * 2;
                bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(from, from + 2), 16);
            }
        }
        try {
            return InetAddress.getByAddress(bytes).getHostAddress() + ":" + port(hexAddress);
        } catch (UnknownHostException e) {
            return hexAddress;
        }
    }
}
