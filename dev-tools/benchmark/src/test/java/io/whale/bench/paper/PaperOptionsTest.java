package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.bench.BenchSystem;
import java.util.List;
import org.junit.jupiter.api.Test;

class PaperOptionsTest {
    @Test
    void shouldRunEveryFigureOnEverySystemItComparesByDefault() {
        PaperOptions o = PaperOptions.parse();
        assertEquals(List.of(PaperFigure.values()), o.figures());
        assertEquals(List.of(PaperApp.RIDEHAILING, PaperApp.STOCK), o.apps());
        assertEquals(List.of(BenchSystem.STORM, BenchSystem.WOC, BenchSystem.WOC_RDMA, BenchSystem.WOC_RDMA_BINOMIAL,
            BenchSystem.WOC_RDMA_NONBLOCK_D1, BenchSystem.WOC_RDMA_NONBLOCK_D2, BenchSystem.WOC_RDMA_NONBLOCK),
            o.systems(), "Storm first: its capacity sets each round's common rate; ack combining off only when asked for");
        assertEquals(List.of(8, 16, 32), o.matchers());
        assertEquals(3, o.repeats());
        assertEquals(3, o.probes(), "the search for the sustainable rate: 0.9, then 0.7 or done, then 0.8 or 0.5 of the capacity");
        assertEquals(1_000, o.p99BoundMillis());
        assertEquals(o.hosts(), o.workers(), "one worker per host");
    }

    @Test
    void shouldRunWhaleWithAckCombiningOffBesideTheOverallComparisonWhenAskedFor() {
        PaperOptions o = PaperOptions.parse("--figures", "14", "--systems", "storm,whale-woc,whale-woc-plainacks");
        assertEquals(List.of(BenchSystem.STORM, BenchSystem.WOC, BenchSystem.WOC_PLAIN_ACKS), o.systemsOf(PaperApp.RIDEHAILING));
        assertTrue(BenchSystem.WOC_PLAIN_ACKS.overrides().contains("whale.woc.ack.combine=false"));
    }

    @Test
    void shouldRunTheRdmaTransportWithItsProgressThreadsPollingBesideItWhenAskedFor() {
        assertFalse(PaperOptions.parse("--figures", "13").systems().contains(BenchSystem.WOC_RDMA_POLLING));
        PaperOptions o = PaperOptions.parse("--figures", "13", "--systems", "storm,whale-woc-rdma-polling,whale-woc-rdma");
        assertEquals(List.of(BenchSystem.STORM, BenchSystem.WOC_RDMA, BenchSystem.WOC_RDMA_POLLING), o.systemsOf(PaperApp.RIDEHAILING));
        assertTrue(BenchSystem.WOC_RDMA_POLLING.overrides().contains("whale.rdma.progress.wait=false"));
        assertEquals("rdma", BenchSystem.WOC_RDMA_POLLING.transportOr("netty"));
    }

    @Test
    void shouldKeepTheQuickRunSmallWithOneProbeAndWithoutTheBinomialAndFixedDegreeSeries() {
        PaperOptions o = PaperOptions.parse("--quick");
        assertEquals(List.of(8), o.matchers());
        assertEquals(1, o.repeats());
        assertEquals(1, o.probes());
        assertFalse(o.systems().contains(BenchSystem.WOC_RDMA_BINOMIAL));
        assertFalse(o.systems().contains(BenchSystem.WOC_RDMA_NONBLOCK_D1));
        assertTrue(o.systems().contains(BenchSystem.WOC_RDMA_NONBLOCK));
    }

    @Test
    void shouldRunOnlyTheApplicationsAndSystemsOfTheFiguresAsked() {
        PaperOptions o = PaperOptions.parse("--figures", "19,20");
        assertEquals(List.of(PaperApp.STOCK), o.apps());
        assertEquals(List.of(BenchSystem.STORM, BenchSystem.WOC_RDMA, BenchSystem.WOC_RDMA_BINOMIAL, BenchSystem.WOC_RDMA_NONBLOCK_D1,
            BenchSystem.WOC_RDMA_NONBLOCK_D2, BenchSystem.WOC_RDMA_NONBLOCK), o.systems(), "the trees where they can differ: d* held at 1 and 2 beside auto");
        assertEquals(List.of(BenchSystem.STORM, BenchSystem.WOC), PaperOptions.parse("--systems", "whale-woc,storm").systems());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--figures", "13", "--systems", "storm,whale-nowoc"))
            .getMessage().startsWith("--systems whale-nowoc is in none of the figures asked"), "a system no figure runs is refused, not left out");
    }

    @Test
    void shouldBringTheClustersUpWithEachHostsCoresOnlyWhenAsked() {
        assertEquals(List.of("--hosts", "3", "--slots", "1", "--link-mbit", "10"), PaperOptions.parse("--quick", "--hosts", "3").clusterLayout());
        assertEquals(List.of("--hosts", "3", "--slots", "1", "--link-mbit", "10", "--host-cpus", "0.25"),
            PaperOptions.parse("--quick", "--hosts", "3", "--host-cpus", "0.25").clusterLayout());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--host-cpus", "0")).getMessage()
            .startsWith("--host-cpus must be positive, not 0.0"));
    }

    @Test
    void shouldNameTheBadInputInItsError() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--figures", "13,10")).getMessage()
            .contains("not '10'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--systems", "flink")).getMessage()
            .contains("not 'flink'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--probes", "-1")).getMessage()
            .startsWith("--probes must be at least 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--load", "0.8")).getMessage()
            .startsWith("unknown option --load"), "the own-load phase became the search");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--hosts", "1")).getMessage()
            .startsWith("--hosts must be at least 2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--repeats")).getMessage()
            .startsWith("--repeats needs a value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--bogus")).getMessage()
            .startsWith("unknown option --bogus"));
    }

    @Test
    void shouldRunBothApplicationsAtMostOnceEachCountingItsOwnProgressAtTheSink() {
        PaperOptions both = PaperOptions.parse("--quick", "--figures", "13,15", "--set", "topology.acker.executors=0");
        assertTrue(both.atMostOnce());
        assertEquals("at-most-once", both.guarantee());
        assertEquals("at-least-once", PaperOptions.parse("--quick", "--figures", "13").guarantee());
        assertEquals(List.of(PaperApp.RIDEHAILING, PaperApp.STOCK), both.apps());
        assertEquals(KafkaFeed.PROGRESS_RESULTS, PaperApp.RIDEHAILING.sinkProgress());
        assertEquals(KafkaFeed.PROGRESS_RECORDS, PaperApp.STOCK.sinkProgress());
    }
}
