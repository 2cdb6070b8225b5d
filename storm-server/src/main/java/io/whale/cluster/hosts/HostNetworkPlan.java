package io.whale.cluster.hosts;

import io.whale.cluster.PortPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.IntStream;

/**
 * The names, addresses and {@code ip}/{@code tc} commands of a cluster of emulated hosts, computed from the cluster's
 * id, the number of hosts, the subnet and the link rate — nothing here touches the system.
 *
 * <p>Host 0 (ZooKeeper, Nimbus) is network namespace {@code whale-ID-h0}, holding the bridge {@code wbridge} with
 * address {@code .10}; host i (Supervisor i) is {@code whale-ID-hi}, with address {@code .(10+i)} on its end of a veth
 * pair, {@code wlink}, whose other end {@code wport<i>} is a port of the bridge. A shaped link has a token-bucket
 * qdisc on both ends' egress: on {@code wlink} for what the host sends, on {@code wport<i>} for what it receives.
 */
public record HostNetworkPlan(String clusterId, Ipv4Cidr subnet, int hosts, OptionalInt linkMbit) {
    public static final String BRIDGE = "wbridge";
    public static final String LINK = "wlink";
    public static final int MAX_MBIT = 100_000;
    private static final int FIRST_HOST_OFFSET = 10;

    public HostNetworkPlan {
        if (!clusterId.matches("[a-z0-9]{1,8}")) {
            throw new IllegalArgumentException("a cluster id is 1-8 lower-case letters or digits, got '" + clusterId + "'");
        }
        if (subnet.prefix() != 24 || !subnet.isPrivate()) {
            throw new IllegalArgumentException("--subnet must be a private /24 (in 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16), got " + subnet);
        }
        if (hosts < 1 || hosts > PortPlan.MAX_SUPERVISORS) {
            throw new IllegalArgumentException("--hosts must lie in 1.." + PortPlan.MAX_SUPERVISORS + ", got " + hosts);
        }
        linkMbit.ifPresent(HostNetworkPlan::checkRate);
    }

    /** Fails naming the bad rate unless it lies in 1..{@link #MAX_MBIT} Mbit/s. */
    public static int checkRate(int mbit) {
        if (mbit < 1 || mbit > MAX_MBIT) {
            throw new IllegalArgumentException("a link rate lies in 1.." + MAX_MBIT + " Mbit/s, got " + mbit);
        }
        return mbit;
    }

    /** Fails naming the bad host unless it is one of the Supervisors' hosts, 1..hosts. */
    public int checkSupervisorHost(int host) {
        if (host < 1 || host > hosts) {
            throw new IllegalArgumentException("host " + host + " is not a Supervisor's host: this cluster has hosts 1.." + hosts
                + (host == 0 ? " (host 0 runs ZooKeeper and Nimbus)" : ""));
        }
        return host;
    }

    public String namespace(int host) {
        return "whale-" + clusterId + "-h" + host;
    }

    /** Every namespace, host 0 first. */
    public List<String> namespaces() {
        return IntStream.rangeClosed(0, hosts).mapToObj(this::namespace).toList();
    }

    public String address(int host) {
        return subnet.address(FIRST_HOST_OFFSET + host);
    }

    /** The interface whose counters are the host's traffic: the bridge for host 0, its link's end for the others. */
    public String interfaceOf(int host) {
        return host == 0 ? BRIDGE : LINK;
    }

    /** The bridge's port (in host 0's namespace) that leads to host {@code host}. */
    public static String bridgePort(int host) {
        return "wport" + host;
    }

    /** Builds the whole network, in order; every namespace first, so a failure later leaves only named things behind. */
    public List<List<String>> setupCommands() {
        List<List<String>> commands = new ArrayList<>();
        namespaces().forEach(ns -> commands.add(List.of("ip", "netns", "add", ns)));
        String bridgeNs = namespace(0);
        commands.add(ip(bridgeNs, "link", "set", "lo", "up"));
        commands.add(ip(bridgeNs, "link", "add", BRIDGE, "type", "bridge"));
        commands.add(ip(bridgeNs, "addr", "add", address(0) + "/" + subnet.prefix(), "dev", BRIDGE));
        commands.add(ip(bridgeNs, "link", "set", BRIDGE, "up"));
        for (int host = 1; host <= hosts; host++) {
            String ns = namespace(host);
            String port = bridgePort(host);
            commands.add(ip(ns, "link", "set", "lo", "up"));
            commands.add(ip(bridgeNs, "link", "add", port, "type", "veth", "peer", "name", LINK, "netns", ns));
            commands.add(ip(bridgeNs, "link", "set", port, "master", BRIDGE));
            commands.add(ip(bridgeNs, "link", "set", port, "up"));
            commands.add(ip(ns, "addr", "add", address(host) + "/" + subnet.prefix(), "dev", LINK));
            commands.add(ip(ns, "link", "set", LINK, "up"));
            if (linkMbit.isPresent()) {
                commands.addAll(shapeCommands(host, linkMbit.getAsInt()));
            }
        }
        return commands;
    }

    /** Shapes host {@code host}'s link to {@code mbit} in both directions, replacing any earlier shaping. */
    public List<List<String>> shapeCommands(int host, int mbit) {
        checkRate(mbit);
        return List.of(tbf(namespace(host), LINK, mbit), tbf(namespace(0), bridgePort(host), mbit));
    }

    /** Cuts host {@code host} off: its bridge port goes down, so its link carries nothing either way. */
    public List<String> partitionCommand(int host) {
        return ip(namespace(0), "link", "set", bridgePort(checkSupervisorHost(host)), "down");
    }

    public List<String> healCommand(int host) {
        return ip(namespace(0), "link", "set", bridgePort(checkSupervisorHost(host)), "up");
    }

    /**
     * A token bucket at {@code mbit}: a bucket of 10 ms at the rate (at least 16 kB, more than a 1500-byte frame plus
     * headroom), and at most 50 ms of queue, so a saturated link adds little delay.
     */
    private static List<String> tbf(String ns, String device, int mbit) {
        long bytesPerSecond = mbit * 125_000L;
        long burst = Math.max(16_000, bytesPerSecond / 100);
        return List.of("tc", "-n", ns, "qdisc", "replace", "dev", device, "root", "tbf",
            "rate", mbit + "mbit", "burst", String.valueOf(burst), "latency", "50ms");
    }

    private static List<String> ip(String ns, String... args) {
        List<String> command = new ArrayList<>(List.of("ip", "-n", ns));
        command.addAll(List.of(args));
        return command;
    }
}
