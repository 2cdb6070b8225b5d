package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostLinksTest {

    @Test
    void shouldGiveTheCoresEachHostUsedBetweenTwoReadingsOfItsCpuTime() {
        assertEquals(List.of(0.25, 1.0), HostLinks.coresBetween(List.of(1_000_000_000L, 2_000_000_000L),
            List.of(1_500_000_000L, 4_000_000_000L), 2.0));
        assertEquals(List.of(), HostLinks.coresBetween(List.of(), List.of(), 2.0), "hosts sharing the machine's cores: no figure");
    }

    @Test
    void shouldReadNoCpuTimeOfHostsWithoutControlGroups() {
        List<HostLinks.Host> shared = List.of(new HostLinks.Host(0, "whale-a-h0", "10.213.0.10", "wbridge", List.of(), false),
            new HostLinks.Host(1, "whale-a-h1", "10.213.0.11", "wlink", List.of(7L), false));
        assertEquals(List.of(), HostLinks.cpuNanos(shared));
    }
}
