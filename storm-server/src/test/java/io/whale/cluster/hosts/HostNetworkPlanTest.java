package io.whale.cluster.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class HostNetworkPlanTest {
    private static final Ipv4Cidr SUBNET = Ipv4Cidr.parse("10.213.7.0/24");

    @Test
    void shouldNameEveryHostsNamespaceAndAddress() {
        HostNetworkPlan plan = new HostNetworkPlan("ab12c", SUBNET, 2, OptionalInt.empty());

        assertEquals(List.of("whale-ab12c-h0", "whale-ab12c-h1", "whale-ab12c-h2"), plan.namespaces());
        assertEquals("10.213.7.10", plan.address(0));
        assertEquals("10.213.7.12", plan.address(2));
        assertEquals("wbridge", plan.interfaceOf(0));
        assertEquals("wlink", plan.interfaceOf(2));
    }

    @Test
    void shouldCreateEveryNamespaceBeforeAnythingInsideThem() {
        HostNetworkPlan plan = new HostNetworkPlan("ab12c", SUBNET, 2, OptionalInt.of(20));
        List<List<String>> commands = plan.setupCommands();

        assertEquals(plan.namespaces().stream().map(ns -> List.of("ip", "netns", "add", ns)).toList(), commands.subList(0, 3));
        assertTrue(commands.stream().skip(3).noneMatch(c -> c.subList(0, 2).equals(List.of("ip", "netns"))));
    }

    @Test
    void shouldJoinEachHostToTheBridgeInHostZeroWithItsOwnAddressAndNoShapingUnlessAsked() {
        List<List<String>> commands = new HostNetworkPlan("ab12c", SUBNET, 1, OptionalInt.empty()).setupCommands();

        assertEquals(List.of(
            List.of("ip", "netns", "add", "whale-ab12c-h0"),
            List.of("ip", "netns", "add", "whale-ab12c-h1"),
            List.of("ip", "-n", "whale-ab12c-h0", "link", "set", "lo", "up"),
            List.of("ip", "-n", "whale-ab12c-h0", "link", "add", "wbridge", "type", "bridge"),
            List.of("ip", "-n", "whale-ab12c-h0", "addr", "add", "10.213.7.10/24", "dev", "wbridge"),
            List.of("ip", "-n", "whale-ab12c-h0", "link", "set", "wbridge", "up"),
            List.of("ip", "-n", "whale-ab12c-h1", "link", "set", "lo", "up"),
            List.of("ip", "-n", "whale-ab12c-h0", "link", "add", "wport1", "type", "veth", "peer", "name", "wlink", "netns", "whale-ab12c-h1"),
            List.of("ip", "-n", "whale-ab12c-h0", "link", "set", "wport1", "master", "wbridge"),
            List.of("ip", "-n", "whale-ab12c-h0", "link", "set", "wport1", "up"),
            List.of("ip", "-n", "whale-ab12c-h1", "addr", "add", "10.213.7.11/24", "dev", "wlink"),
            List.of("ip", "-n", "whale-ab12c-h1", "link", "set", "wlink", "up")), commands);
    }

    @Test
    void shouldShapeBothEndsOfEveryLinkWithATokenBucket() {
        List<List<String>> commands = new HostNetworkPlan("ab12c", SUBNET, 2, OptionalInt.of(20)).setupCommands();

        List<List<String>> shaping = commands.stream().filter(c -> c.get(0).equals("tc")).toList();
        assertEquals(List.of(
            List.of("tc", "-n", "whale-ab12c-h1", "qdisc", "replace", "dev", "wlink", "root", "tbf", "rate", "20mbit", "burst", "25000", "latency", "50ms"),
            List.of("tc", "-n", "whale-ab12c-h0", "qdisc", "replace", "dev", "wport1", "root", "tbf", "rate", "20mbit", "burst", "25000", "latency", "50ms"),
            List.of("tc", "-n", "whale-ab12c-h2", "qdisc", "replace", "dev", "wlink", "root", "tbf", "rate", "20mbit", "burst", "25000", "latency", "50ms"),
            List.of("tc", "-n", "whale-ab12c-h0", "qdisc", "replace", "dev", "wport2", "root", "tbf", "rate", "20mbit", "burst", "25000", "latency", "50ms")),
            shaping);
    }

    @Test
    void shouldKeepTheBucketAboveAFullFrameAtLowRates() {
        List<List<String>> slow = new HostNetworkPlan("ab12c", SUBNET, 1, OptionalInt.empty()).shapeCommands(1, 1);

        assertEquals("16000", slow.get(0).get(slow.get(0).indexOf("burst") + 1));
    }

    @Test
    void shouldPartitionAndHealAHostAtItsBridgePort() {
        HostNetworkPlan plan = new HostNetworkPlan("ab12c", SUBNET, 3, OptionalInt.empty());

        assertEquals(List.of("ip", "-n", "whale-ab12c-h0", "link", "set", "wport3", "down"), plan.partitionCommand(3));
        assertEquals(List.of("ip", "-n", "whale-ab12c-h0", "link", "set", "wport3", "up"), plan.healCommand(3));
    }

    @Test
    void shouldRefuseFaultsOnHostsItDoesNotHave() {
        HostNetworkPlan plan = new HostNetworkPlan("ab12c", SUBNET, 3, OptionalInt.empty());

        assertEquals("host 4 is not a Supervisor's host: this cluster has hosts 1..3",
            assertThrows(IllegalArgumentException.class, () -> plan.partitionCommand(4)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> plan.healCommand(0)).getMessage()
            .endsWith("(host 0 runs ZooKeeper and Nimbus)"));
        assertEquals("a link rate lies in 1..100000 Mbit/s, got 0",
            assertThrows(IllegalArgumentException.class, () -> plan.shapeCommands(1, 0)).getMessage());
    }

    @Test
    void shouldRefuseSubnetsThatAreNotPrivateSlashTwentyFours() {
        assertThrows(IllegalArgumentException.class, () -> new HostNetworkPlan("ab12c", Ipv4Cidr.parse("10.213.0.0/16"), 1, OptionalInt.empty()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new HostNetworkPlan("ab12c", Ipv4Cidr.parse("192.0.2.0/24"), 1, OptionalInt.empty()));
        assertTrue(e.getMessage().startsWith("--subnet must be a private /24"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HostNetworkPlan("ab12c", SUBNET, 10, OptionalInt.empty()));
    }
}
