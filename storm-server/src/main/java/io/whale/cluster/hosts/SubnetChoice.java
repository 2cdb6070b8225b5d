package io.whale.cluster.hosts;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Which private /24 the emulated hosts get: the first of 10.213.0.0/24 .. 10.213.255.0/24 that overlaps no network
 * this machine routes (default routes aside, which overlap everything), so the hosts' addresses can never stand for
 * a machine elsewhere.
 */
public final class SubnetChoice {
    private static final Set<String> ROUTE_TYPES = Set.of("unicast", "local", "broadcast", "multicast", "anycast",
        "blackhole", "unreachable", "prohibit", "throw", "nat");

    private SubnetChoice() {
    }

    public static Ipv4Cidr firstFree(Collection<Ipv4Cidr> inUse) {
        for (int third = 0; third < 256; third++) {
            Ipv4Cidr candidate = Ipv4Cidr.parse("10.213." + third + ".0/24");
            if (conflict(candidate, inUse).isEmpty()) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("every /24 of 10.213.0.0/16 is in use on this machine; choose one with --subnet");
    }

    /** A network in use that {@code subnet} overlaps (default routes aside), if any. */
    public static List<Ipv4Cidr> conflict(Ipv4Cidr subnet, Collection<Ipv4Cidr> inUse) {
        return inUse.stream().filter(n -> n.prefix() > 0 && n.overlaps(subnet)).toList();
    }

    /** The destinations of {@code ip -4 route show table all} output ("default" and unparsable lines skipped). */
    public static List<Ipv4Cidr> routeDestinations(String ipRouteOutput) {
        List<Ipv4Cidr> networks = new ArrayList<>();
        for (String line : ipRouteOutput.split("\\R")) {
            String[] words = line.strip().split("\\s+");
            String destination = words.length > 1 && ROUTE_TYPES.contains(words[0]) ? words[1] : words[0];
            if (destination.isEmpty() || destination.equals("default")) {
                continue;
            }
            try {
                networks.add(Ipv4Cidr.parse(destination));
            } catch (IllegalArgumentException notAnIpv4Route) {
                // e.g. an IPv6 or multicast-group line: not a network the hosts could collide with
            }
        }
        return networks;
    }
}
