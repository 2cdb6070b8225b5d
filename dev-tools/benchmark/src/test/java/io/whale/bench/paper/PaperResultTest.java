package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PaperResultTest {
    private static PhaseResult probe(double rate, double consumed, boolean keptUp) {
        return new PhaseResult(rate, rate, consumed, rate - consumed, 10, 8, 30, 1_000, keptUp, 5);
    }

    private static PaperResult run(List<PhaseResult> search) {
        return run(search, null);
    }

    private static PaperResult run(List<PhaseResult> search, PhaseResult common) {
        return new PaperResult("ridehailing", "storm", 8, 4, 1, "2026-11-24T10:00:00Z", 1_000, 1.9, 8.5, 7_000, 12.5, 40, 1, search,
            common, 1, List.of(), List.of(), List.of(), Map.of(), null);
    }

    @Test
    void shouldKeepEachHostsLinkThroughResultsJsonAndReadOlderResultsWithoutThem() throws Exception {
        ObjectMapper json = new ObjectMapper();
        PaperResult r = run(List.of(probe(900, 895, true)));
        PaperResult withLinks = new PaperResult(r.app(), r.system(), r.matchers(), r.workers(), r.repeat(), r.started(),
            r.capacityPerSecond(), r.machineCoresBusy(), r.sourceLinkMbit(), r.sourceBytesPer10kRecords(), r.sourceSendMicrosPerRecord(),
            r.sourceSerializationPercent(), r.sourceHost(), r.search(), r.common(), r.dataPasses(), List.of(0.05, 0.2),
            List.of(0.1, 0.97), List.of(0.2, 0.4), Map.of(), null);

        PaperResult read = json.treeToValue(json.valueToTree(withLinks), PaperResult.class);
        assertEquals(List.of(0.1, 0.97), read.hostTxMbit());
        assertEquals(List.of(0.2, 0.4), read.hostRxMbit());

        ObjectNode older = json.valueToTree(r);
        older.remove(List.of("hostTxMbit", "hostRxMbit"));
        assertEquals(List.of(), json.treeToValue(older, PaperResult.class).hostTxMbit(), "a run recorded before them has none");
    }

    @Test
    void shouldReportTheCommonPhasesRateWhenItKeptUpAboveEveryProbe() {
        PaperResult r = run(List.of(probe(350, 416, true), probe(430, 445, true)), probe(815, 819, true));
        assertEquals(815, r.throughputPerSecond(), "the common phase offered a Poisson rate behind a drained backlog too");
        assertTrue(r.sustainedRateFound());

        PaperResult behind = run(List.of(probe(900, 610, false)), probe(800, 640, false));
        assertTrue(Double.isNaN(behind.throughputPerSecond()));
        assertEquals(800, behind.rateBasisPerSecond(), "the lowest rate offered to a paced phase");

        PaperResult lower = run(List.of(probe(900, 610, false)), probe(700, 698, true));
        assertEquals(700, lower.throughputPerSecond(), "a common phase that kept up below the probes is the sustainable rate");
        assertEquals(700, lower.sustainedPhase().orElseThrow().ratePerSecond(), "its latency is the one at the system's own rate");
        assertEquals(815, r.sustainedPhase().orElseThrow().ratePerSecond());
        assertTrue(behind.sustainedPhase().isEmpty());
    }

    @Test
    void shouldReportTheRateOfferedToTheHighestProbeThatKeptUp() {
        PaperResult r = run(List.of(probe(900, 700, false), probe(700, 698, true), probe(800, 795, true)));
        assertEquals(800, r.throughputPerSecond(), "offered, not the 795 committed");
        assertEquals(800, r.rateBasisPerSecond());
        assertTrue(r.sustainedRateFound());
    }

    @Test
    void shouldCallTheRateAFloorOnlyWhenNoProbeAboveItFellBehind() {
        assertTrue(SustainedRate.floor(List.of(probe(900, 895, true), probe(1_100, 1_090, true))), "nothing above it fell behind");
        assertFalse(SustainedRate.floor(List.of(probe(900, 895, true), probe(1_100, 900, false))), "1,100 fell behind: the rate is found");
        assertTrue(SustainedRate.floor(List.of(probe(900, 1_200, false), probe(900, 895, true), probe(1_100, 1_090, true))),
            "the probe at 900 that fell behind on an undrained backlog ran again and kept up: nothing above 1,100 fell behind");
        assertFalse(SustainedRate.floor(List.of(probe(900, 610, false))), "none kept up: no rate, no floor");
        assertFalse(SustainedRate.floor(List.of()), "no search: the capacity");
    }

    @Test
    void shouldReportNoThroughputWhenNoProbeKeptUpAndStepFromTheLowestRateOffered() {
        PaperResult r = run(List.of(probe(900, 610, false), probe(700, 640, false), probe(500, 430, false)));
        assertTrue(Double.isNaN(r.throughputPerSecond()), "never what a probe that fell behind consumed");
        assertEquals(500, r.rateBasisPerSecond(), "the sustainable rate lies below the lowest rate offered");
        assertFalse(r.sustainedRateFound());
    }

    @Test
    void shouldGiveEachFigureItsValueAndCompareTrafficAndLatencyAsReductions() {
        PaperResult r = run(List.of(probe(900, 895, true)));
        assertEquals(900, PaperFigure.Metric.THROUGHPUT.of(r));
        assertEquals(7_000, PaperFigure.Metric.TRAFFIC.of(r), "the source host's bytes per 10,000 records");
        assertEquals(12.5, PaperFigure.Metric.SEND_TIME.of(r), "µs on the send path per record");
        assertEquals(40, PaperFigure.Metric.SERIALIZATION_SHARE.of(r), "% of it serializing");
        assertTrue(Double.isNaN(PaperFigure.Metric.LATENCY.of(r)), "no common phase: no latency");
        assertEquals(1.5, PaperFigure.Metric.THROUGHPUT.compare(1_500, 1_000));
        assertEquals(90, PaperFigure.Metric.TRAFFIC.compare(700, 7_000), 1e-9);
        assertEquals(" % less traffic", PaperFigure.Metric.TRAFFIC.comparisonUnit());
        assertEquals("×", PaperFigure.Metric.THROUGHPUT.comparisonUnit());
    }

    @Test
    void shouldReportTheCapacityWithoutASearch() {
        PaperResult r = run(null);
        assertEquals(List.of(), r.search());
        assertEquals(1_000, r.throughputPerSecond());
        assertFalse(r.sustainedRateFound());
    }
}
