package io.whale.cluster.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostsStateTest {

    @Test
    void shouldKeepThePlanAndEveryFaultsChangeAcrossCommands(@TempDir Path tmp) {
        HostNetworkPlan plan = new HostNetworkPlan("q7x2k", Ipv4Cidr.parse("10.213.3.0/24"), 3, OptionalInt.of(50));
        Path file = tmp.resolve("hosts.properties");

        HostsState.planned(plan, OptionalDouble.of(0.25)).withRate(2, 5).withPartitioned(3, true).store(file);
        HostsState read = HostsState.load(file);

        assertEquals(plan, read.plan());
        assertEquals(OptionalInt.of(50), read.rate(1));
        assertEquals(OptionalInt.of(5), read.rate(2));
        assertEquals(Set.of(3), read.partitioned());
        assertEquals(Set.of(), read.withPartitioned(3, false).partitioned());
        assertEquals(OptionalDouble.of(0.25), read.withRate(1, 9).hostCpus());
    }

    @Test
    void shouldRunACommandOnAHostInItsNamespaceAndWithoutHostCpusInNoControlGroup() {
        HostNetworkPlan plan = new HostNetworkPlan("q7x2k", Ipv4Cidr.parse("10.213.3.0/24"), 2, OptionalInt.empty());

        assertEquals(List.of("ip", "netns", "exec", "whale-q7x2k-h2", "kafka", "start"),
            HostsState.planned(plan, OptionalDouble.empty()).onHost(2, List.of("kafka", "start")));
        assertEquals(OptionalDouble.empty(), HostsState.planned(plan, OptionalDouble.empty()).hostCpus());
    }

    @Test
    void shouldReportUnshapedLinksAsHavingNoRate() {
        HostNetworkPlan plan = new HostNetworkPlan("q7x2k", Ipv4Cidr.parse("10.213.3.0/24"), 2, OptionalInt.empty());

        assertEquals(OptionalInt.empty(), HostsState.planned(plan, OptionalDouble.empty()).rate(1));
        assertEquals(OptionalInt.of(8), HostsState.planned(plan, OptionalDouble.empty()).withRate(1, 8).rate(1));
    }
}
