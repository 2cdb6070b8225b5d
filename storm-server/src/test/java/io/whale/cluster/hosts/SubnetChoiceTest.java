package io.whale.cluster.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubnetChoiceTest {

    @Test
    void shouldSkipEverySubnetARouteCoversButNotBecauseOfTheDefaultRoute() {
        List<Ipv4Cidr> inUse = List.of(Ipv4Cidr.parse("0.0.0.0/0"), Ipv4Cidr.parse("10.213.0.0/24"), Ipv4Cidr.parse("10.213.1.7/32"));

        assertEquals(Ipv4Cidr.parse("10.213.2.0/24"), SubnetChoice.firstFree(inUse));
    }

    @Test
    void shouldFailWhenAWideRouteCoversEveryCandidate() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> SubnetChoice.firstFree(List.of(Ipv4Cidr.parse("10.0.0.0/8"))));
        assertEquals("every /24 of 10.213.0.0/16 is in use on this machine; choose one with --subnet", e.getMessage());
    }

    @Test
    void shouldNameTheNetworksASubnetCollidesWith() {
        List<Ipv4Cidr> inUse = new ArrayList<>(List.of(Ipv4Cidr.parse("0.0.0.0/0"), Ipv4Cidr.parse("10.0.0.0/8"), Ipv4Cidr.parse("192.0.2.0/24")));

        assertEquals(List.of(Ipv4Cidr.parse("10.0.0.0/8")), SubnetChoice.conflict(Ipv4Cidr.parse("10.213.9.0/24"), inUse));
    }

    @Test
    void shouldReadTheDestinationsOfIpRouteOutput() {
        String output = """
            default via 192.0.2.1 dev eth0
            192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2
            local 127.0.0.0/8 dev lo table local proto kernel scope host src 127.0.0.1
            broadcast 192.0.2.255 dev eth0 table local proto kernel scope link src 192.0.2.2
            """;

        assertEquals(List.of(Ipv4Cidr.parse("192.0.2.0/24"), Ipv4Cidr.parse("127.0.0.0/8"), Ipv4Cidr.parse("192.0.2.255/32")),
            SubnetChoice.routeDestinations(output));
    }
}
