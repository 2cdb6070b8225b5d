package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.bench.BenchSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaperReportTest {
    @Test
    void shouldDrawTheTrafficFiguresFromTheSourceHostsBytesAndCompareThemAsAReduction(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString());
        List<PaperResult> results = new ArrayList<>();
        for (PaperApp app : options.apps()) {
            for (BenchSystem s : options.systemsOf(app)) {
                // Storm sends a copy per matcher task, Whale one per worker: a tenth of the bytes
                results.add(result(app, s, s == BenchSystem.STORM ? 70_000 : 7_000));
            }
        }

        List<String> empty = new PaperReport(options, results, stepRuns(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        assertEquals(List.of(), empty, "every series of every figure has data");
        for (String fig : List.of("fig27", "fig28")) {
            assertTrue(Files.size(dir.resolve(fig + ".png")) > 0, fig + ".png drawn");
            JsonNode json = new ObjectMapper().readTree(dir.resolve(fig + ".json").toFile());
            assertEquals("communication traffic (bytes per 10,000 records)", json.path("metric").asText());
            JsonNode storm = json.path("series").get(0);
            assertEquals("storm", storm.path("system").asText());
            assertEquals(70_000, storm.path("points").get(0).path("median").asDouble());
            JsonNode comparison = json.path("comparisons").get(0);
            assertEquals(90, comparison.path("ours").path("median").asDouble(), 1e-9);
            assertEquals("% less traffic", comparison.path("unit").asText());
        }
        assertTrue(Files.readString(dir.resolve("report.md")).contains("## Fig. 27: Communication traffic using orders generated in the Didi format"));

        JsonNode headline = new ObjectMapper().readTree(dir.resolve("headline.json").toFile());
        JsonNode woc = null;
        JsonNode rdma = null;
        for (JsonNode row : headline) {
            if (row.path("app").asText().equals("ridehailing") && row.path("system").asText().equals("whale-woc")) {
                woc = row;
            }
            if (row.path("app").asText().equals("ridehailing") && row.path("system").asText().equals("whale-woc-rdma-nonblock")) {
                rdma = row;
            }
        }
        assertEquals("Netty over TCP", woc.path("transport").asText());
        assertEquals("UCX over TCP", rdma.path("transport").asText(), "the RDMA rows name the UCX transport that carried them");
        assertEquals("at-least-once", woc.path("guarantee").asText());
        assertEquals(8, woc.path("matchers").asInt());
        assertEquals(2.0, woc.path("tasks_per_worker").asDouble(), 1e-9, "P = 8 over the quick run's 4 workers");
        assertEquals(0.1, woc.path("bytes_vs_storm").path("median").asDouble(), 1e-9, "7,000 against 70,000 bytes, a plain ratio");
        assertEquals(1.0, woc.path("x_storm").path("median").asDouble(), 1e-9);
        assertEquals(1.0, woc.path("latency_vs_storm").path("median").asDouble(), 1e-9, "each at its own fastest paced phase kept up");
        assertEquals(901, woc.path("offered_per_s").path("median").asDouble(), 1e-9);

        JsonNode fig21 = new ObjectMapper().readTree(dir.resolve("fig21.json").toFile());
        assertEquals("multicast latency (ms)", fig21.path("metric").asText());
        JsonNode versusSequential = fig21.path("comparisons").get(fig21.path("comparisons").size() - 1);
        assertEquals("whale-woc-rdma", versusSequential.path("baseline").asText());
        assertEquals(60, versusSequential.path("ours").path("median").asDouble(), 1e-9, "20 ms against 50 ms");
        assertEquals(57.8, versusSequential.path("paperAtP480").asDouble(), 1e-9);
    }

    @Test
    void shouldGiveEachRoundsRatioToStormInTheHeadlineInTheOrderTheRoundsRan(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems", "storm,whale-woc",
            "--repeats", "3");
        // Whale kept up with 901 records/s in every round; Storm with 901, 450.5 and (round 3) nothing it was offered
        List<PaperResult> results = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            results.add(inRound(result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000), round, true));
        }
        results.add(inRound(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000), 1, true));
        results.add(inRound(halfTheRate(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000)), 2, true));
        results.add(inRound(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000), 3, false));

        new PaperReport(options, results, List.of(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        JsonNode woc = new ObjectMapper().readTree(dir.resolve("headline.json").toFile()).get(1);
        assertEquals("whale-woc", woc.path("system").asText());
        JsonNode rounds = woc.path("x_storm").path("per_round");
        assertEquals(3, rounds.size(), rounds.toString());
        assertEquals(1.0, rounds.get(0).asDouble(), 1e-9);
        assertEquals(2.0, rounds.get(1).asDouble(), 1e-9);
        assertTrue(rounds.get(2).isNull(), "Storm found no sustainable rate in round 3: no ratio, not a zero");
        assertEquals(1.5, woc.path("x_storm").path("median").asDouble(), 1e-9);
        assertEquals(2, woc.path("x_storm").path("repeats").asInt());
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("| Whale-WOC | 1.00× | 2.00× | – |"), report);
        assertTrue(report.contains("bars: the lowest and the highest round"), report);
    }

    @Test
    void shouldSayWhatShareOfItsThroughputAtTheLowestPEachSystemKeepsAtTheHighest(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems", "storm,whale-woc",
            "--matchers", "16,128");
        // Storm falls to half with eight times the matchers, Whale keeps its 901 records/s
        List<PaperResult> results = List.of(at(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000), 16),
            at(halfTheRate(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000)), 128),
            at(result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000), 16), at(result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000), 128));

        new PaperReport(options, results, List.of(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        List<Double> shares = new ArrayList<>();
        for (JsonNode row : new ObjectMapper().readTree(dir.resolve("headline.json").toFile())) {
            if (row.path("matchers").asInt() == 128) {
                shares.add(row.path("x_own_at_lowest_p").path("median").asDouble());
            }
        }
        assertEquals(List.of(0.5, 1.0), shares, "Storm, Whale-WOC");
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("| Storm | 0.50× |") && report.contains("| Whale-WOC | 1.00× |"), report);
    }

    @Test
    void shouldNameWhatBoundEachRunFromTheSourceHostsCoresAndLink(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems", "storm,whale-woc",
            "--host-cpus", "0.25");
        PaperResult r = result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000);
        // Storm's source (host 2) sent 9.6 of 10 Mbit/s on 0.12 of its 0.25 core; Whale's sent 6 Mbit/s on all of its core
        PaperResult storm = new PaperResult(r.app(), r.system(), r.matchers(), r.workers(), r.repeat(), r.started(), r.capacityPerSecond(),
            1.0, 9.6, 70_000, 10, 10, 2, r.search(), r.common(), 1, List.of(0.05, 0.2, 0.12, 0.2), List.of(), List.of(), Map.of(), null);
        PaperResult whale = new PaperResult(r.app(), BenchSystem.WOC.option(), r.matchers(), r.workers(), r.repeat(), r.started(),
            r.capacityPerSecond(), 1.0, 6.0, 7_000, 10, 10, 3, r.search(), r.common(), 1, List.of(0.05, 0.2, 0.12, 0.25), List.of(), List.of(), Map.of(), null);

        new PaperReport(options, List.of(storm, whale), List.of(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("| ridehailing | storm | 8 | 1.00 | 0.12 | 9.60 | 96 % | link |"), report);
        assertTrue(report.contains("| ridehailing | whale-woc | 8 | 1.00 | 0.25 | 6.00 | 60 % | source host CPU |"), report);
    }

    @Test
    void shouldNameTheOtherHostsWhoseLinkOrCoresBoundTheRunWhenTheSourcesHadRoom(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems", "storm,whale-woc",
            "--host-cpus", "0.2", "--link-mbit", "1");
        PaperResult r = result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000);
        // the source (host 3) sends 0.54 of 1 Mbit/s on 0.16 core; host 4 receives every answer at 0.95, host 5 runs 0.19 core
        List<Double> tx = List.of(0.3, 0.3, 0.3, 0.54, 0.5, 0.3);
        List<Double> rx = List.of(0.1, 0.2, 0.2, 0.4, 0.95, 0.3);
        List<PaperResult> rounds = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            rounds.add(new PaperResult(r.app(), r.system(), r.matchers(), r.workers(), round, r.started(), r.capacityPerSecond(), 1.5,
                0.54, 7_000, 10, 10, 3, r.search(), r.common(), 1, List.of(0.05, 0.1, 0.1, 0.16, 0.17, 0.19), tx,
                round == 2 ? rx.stream().map(v -> v / 2).toList() : rx, Map.of(), null));
        }

        new PaperReport(options, rounds, List.of(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("| 54 % | other hosts | host 4 receives 0.95, host 5's CPU 0.19 | 7000 [7000–7000] |"),
            "host 4's median over the rounds (one of them half), host 5 at 95 % of its 0.2 core; not the source's own: " + report);
    }

    @Test
    void shouldReportARunWhosePacedPhasesAllFellBehindAsWithoutASustainableRateNotAsMissing(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems", "storm,whale-woc");
        PaperResult storm = result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000);
        PaperResult whale = result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000);
        PaperResult fellBehind = new PaperResult(whale.app(), whale.system(), whale.matchers(), whale.workers(), whale.repeat(),
            whale.started(), whale.capacityPerSecond(), whale.machineCoresBusy(), whale.sourceLinkMbit(), whale.sourceBytesPer10kRecords(),
            whale.sourceSendMicrosPerRecord(), whale.sourceSerializationPercent(), whale.sourceHost(),
            List.of(new PhaseResult(900, 901, 620, 281, 15, 12, 50, 18_000, false, 50)),
            new PhaseResult(800, 801, 600, 201, 15, 12, 50, 16_000, false, 50), 1, List.of(), List.of(), List.of(), Map.of(), null);

        List<String> empty = new PaperReport(options, List.of(storm, fellBehind), List.of(), List.of(), Map.of("command", "test",
            "started", "-", "finished", "-", "cpus", 2, "loadAverageAtStart", 0.0)).write();

        assertEquals(List.of(), empty, "the run ran: no sustainable rate is its result");
        JsonNode fig13 = new ObjectMapper().readTree(dir.resolve("fig13.json").toFile());
        assertEquals(901, fig13.path("series").get(0).path("points").get(0).path("median").asDouble(), 1e-9, "Storm: the rate it kept up with");
        assertEquals(0, fig13.path("series").get(1).path("points").size(), "Whale-WOC: no point, never the 620/s it drained");
        assertTrue(Files.readString(dir.resolve("report.md")).contains("| Whale-WOC | 8 | no paced phase kept up |"),
            Files.readString(dir.resolve("report.md")));
    }

    @Test
    void shouldFlagTheRoundsWhoseCommonPhaseFellBehindWhereItsLatencyIsQuoted(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "14", "--systems", "storm,whale-woc",
            "--repeats", "2");
        PaperResult storm = result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000);
        PhaseResult behind = new PhaseResult(800, 800, 700, 100, 30, 25, 90, 3_500, false, Double.NaN);
        PaperResult stormBehind = new PaperResult(storm.app(), storm.system(), storm.matchers(), storm.workers(), 2, storm.started(),
            storm.capacityPerSecond(), storm.machineCoresBusy(), storm.sourceLinkMbit(), storm.sourceBytesPer10kRecords(),
            storm.sourceSendMicrosPerRecord(), storm.sourceSerializationPercent(), storm.sourceHost(), storm.search(), behind, 1,
            List.of(), List.of(), List.of(), Map.of(), null);
        List<PaperResult> results = List.of(storm, stormBehind, result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000),
            inRound(result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000), 2, true));

        new PaperReport(options, results, List.of(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("| Storm | 8 | 21.0 [12.0–30.0] (the common phase fell behind in round 2) |"), report);
        assertTrue(report.contains("| Whale-WOC | 8 | 12.0 [12.0–12.0] |"), "both of Whale's kept up: " + report);
        JsonNode stormPoint = new ObjectMapper().readTree(dir.resolve("fig14.json").toFile()).path("series").get(0).path("points").get(0);
        assertEquals("[2]", stormPoint.path("commonFellBehindInRounds").toString());
    }

    @Test
    void shouldWriteNullNotTheStringNaNForARatioNoRoundMeasured(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "13", "--systems", "storm,whale-woc",
            "--matchers", "16,128");
        // Whale-WOC kept up with nothing at P = 16: no share of its P = 16 rate to give at 128
        List<PaperResult> results = List.of(at(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000), 16),
            at(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000), 128),
            inRound(at(result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000), 16), 1, false),
            at(result(PaperApp.RIDEHAILING, BenchSystem.WOC, 7_000), 128));

        new PaperReport(options, results, List.of(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        JsonNode woc = null;
        for (JsonNode row : new ObjectMapper().readTree(dir.resolve("headline.json").toFile())) {
            if (row.path("matchers").asInt() == 128 && row.path("system").asText().equals("whale-woc")) {
                woc = row;
            }
        }
        JsonNode share = woc.path("x_own_at_lowest_p");
        assertTrue(share.path("median").isNull() && share.path("min").isNull() && share.path("max").isNull(), share.toString());
        assertEquals(0, share.path("repeats").asInt());
        assertEquals(1.0, woc.path("x_storm").path("median").asDouble(), 1e-9, "a measured ratio stays a number");
    }

    @Test
    void shouldPlotTheFirstRepeatOfEachStructureThroughTheRateStepsAndCompareThemAtTheBaseRate(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "23,24", "--repeats", "2");

        List<String> empty = new PaperReport(options, List.of(), stepRuns(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        assertEquals(List.of(), empty);
        assertTrue(Files.size(dir.resolve("fig23.png")) > 0 && Files.size(dir.resolve("fig24.png")) > 0);
        JsonNode fig23 = new ObjectMapper().readTree(dir.resolve("fig23.json").toFile());
        assertEquals(4, fig23.path("runs").size(), "every repeat of both structures");
        JsonNode comparison = fig23.path("comparisons").get(0);
        assertEquals(4, comparison.path("step").asInt(), "the step at the base rate");
        // repeat 1: 100 vs 75 answered per second; repeat 2: 100 vs 80
        assertEquals((100 / 75.0 + 100 / 80.0) / 2, comparison.path("ours").path("median").asDouble(), 1e-9);
        assertEquals(1.33, comparison.path("paper").asDouble());
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("## Fig. 23: Throughput variation as stream rate changes"), report);
        assertTrue(report.contains("| 2 | 60 | non-blocking (Whale) | 1 [1–1] | 1000 [1000–1000] | 60 [60–60] |"), "step 2's switch, a second in: " + report);
        assertTrue(report.contains("| 4 | 100 | sequential | 0 [0–0] | – | 78 [75–80] | 1.50 [1.50–1.50] | 0.25 [0.25–0.25] | 1.80 [1.80–1.80] |"),
            "above its capacity the sequential structure's source host at its quarter of a core: " + report);
    }

    @Test
    void shouldReportARateStepFigureWithoutRunsAsEmpty(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "23");

        List<String> empty = new PaperReport(options, List.of(), List.of(), List.of(), Map.of("command", "test", "started", "-", "finished", "-",
            "cpus", 2, "loadAverageAtStart", 0.0)).write();

        assertEquals(List.of("Fig. 23: sequential", "Fig. 23: non-blocking (Whale)"), empty);
    }

    @Test
    void shouldPlotASweepAgainstItsKeyWithTheRoundsRunAtTheShippedValue(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "11,12");
        List<PaperResult> rounds = List.of(result(PaperApp.RIDEHAILING, BenchSystem.STORM, 70_000),
            result(PaperApp.RIDEHAILING, BenchSystem.WOC_RDMA_NONBLOCK, 7_000));
        // WTL 10 ms: what the round's run carried at 1 ms, its latency ten times as long
        PhaseResult slower = new PhaseResult(800, 800, 799, 0, 120, 100, 400, 4_000, true, 90);
        PaperResult wtl10 = new PaperResult("ridehailing", "whale-woc-rdma-nonblock", 8, 4, 1, "2026-11-24T10:00:00Z", 1_000, 1.9, 8.5,
            7_000, 7, 15, 1, List.of(new PhaseResult(900, 901, 890, 6, 150, 120, 500, 18_000, true, 90)), slower, 1, List.of(), List.of(), List.of(), Map.of(), null);

        List<String> empty = new PaperReport(options, rounds, List.of(), List.of(new PaperSweepRun(PaperSweep.WTL, 10, wtl10)),
            Map.of("command", "test", "started", "-", "finished", "-", "cpus", 2, "loadAverageAtStart", 0.0)).write();

        assertEquals(List.of(), empty, "the shipped MMS is the round's run: Fig. 11 has a point");
        JsonNode fig12 = new ObjectMapper().readTree(dir.resolve("fig12.json").toFile());
        assertEquals("whale.rdma.wtl.ms", fig12.path("key").asText());
        JsonNode shipped = fig12.path("points").get(0);
        assertEquals(1, shipped.path("value").asLong());
        assertTrue(shipped.path("shipped").asBoolean());
        assertEquals(12, shipped.path("latency").path("median").asDouble(), 1e-9, "the round's common phase");
        JsonNode at10 = fig12.path("points").get(1);
        assertEquals(10, at10.path("value").asLong());
        assertEquals(120, at10.path("latency").path("median").asDouble(), 1e-9);
        assertEquals(901, at10.path("throughput").path("median").asDouble(), 1e-9, "the rate offered to the probe that kept up");
        assertEquals(1, new ObjectMapper().readTree(dir.resolve("fig11.json").toFile()).path("points").size(),
            "the quick run's Fig. 11: the round's run alone");
        assertTrue(Files.size(dir.resolve("fig12.png")) > 0);
        String report = Files.readString(dir.resolve("report.md"));
        assertTrue(report.contains("| 10 | 901 | 120.0 | 400 |"), report);
    }

    @Test
    void shouldReportASweepWithoutRunsAsEmpty(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString(), "--figures", "12");

        List<String> empty = new PaperReport(options, List.of(), List.of(), List.of(), Map.of("command", "test", "started", "-",
            "finished", "-", "cpus", 2, "loadAverageAtStart", 0.0)).write();

        assertEquals(List.of("Fig. 12: non-blocking (Whale)"), empty);
    }

    private static List<PaperStepRun> stepRuns() {
        String schedule = "30:4,60:4,80:4,100:4,80:4";
        return List.of(MadeUpStepRuns.run(BenchSystem.WOC_RDMA, 1, schedule, 75, false),
            MadeUpStepRuns.run(BenchSystem.WOC_RDMA_NONBLOCK, 1, schedule, 100, true),
            MadeUpStepRuns.run(BenchSystem.WOC_RDMA, 2, schedule, 80, false),
            MadeUpStepRuns.run(BenchSystem.WOC_RDMA_NONBLOCK, 2, schedule, 100, true));
    }

    /** The run as round {@code round}, its paced phases kept up or all fallen behind. */
    private static PaperResult inRound(PaperResult r, int round, boolean keptUp) {
        return changed(r, r.matchers(), round, 1, p -> new PhaseResult(p.ratePerSecond(), p.offeredPerSecond(), p.consumedPerSecond(),
            p.backlogGrowthPerSecond(), p.meanMillis(), p.p50Millis(), p.p99Millis(), p.results(), keptUp && p.keptUp(),
            p.multicastMillis()));
    }

    /** The run at P = {@code p}. */
    private static PaperResult at(PaperResult r, int p) {
        return changed(r, p, r.repeat(), 1, UnaryOperator.identity());
    }

    /** The run with every paced phase offered and carrying half its rate. */
    private static PaperResult halfTheRate(PaperResult r) {
        return changed(r, r.matchers(), r.repeat(), 0.5, p -> new PhaseResult(p.ratePerSecond() / 2, p.offeredPerSecond() / 2,
            p.consumedPerSecond() / 2, p.backlogGrowthPerSecond(), p.meanMillis(), p.p50Millis(), p.p99Millis(), p.results(), p.keptUp(),
            p.multicastMillis()));
    }

    /** The run at P = {@code p} as round {@code repeat}, its capacity times {@code capacityShare}, each paced phase {@code phase}'s. */
    private static PaperResult changed(PaperResult r, int p, int repeat, double capacityShare, UnaryOperator<PhaseResult> phase) {
        return new PaperResult(r.app(), r.system(), p, r.workers(), repeat, r.started(), r.capacityPerSecond() * capacityShare,
            r.machineCoresBusy(), r.sourceLinkMbit(), r.sourceBytesPer10kRecords(), r.sourceSendMicrosPerRecord(),
            r.sourceSerializationPercent(), r.sourceHost(), r.search().stream().map(phase).toList(), phase.apply(r.common()),
            r.dataPasses(), r.hostCores(), r.hostTxMbit(), r.hostRxMbit(), r.workerLosses(), null);
    }

    private static PaperResult result(PaperApp app, BenchSystem system, double bytesPer10k) {
        // the source's multicasts: 50 ms along the sequential structure, 20 ms along the non-blocking tree; Storm times none
        double multicast = !system.whale() ? Double.NaN : system == BenchSystem.WOC_RDMA_NONBLOCK ? 20 : 50;
        PhaseResult probe = new PhaseResult(900, 901, 890, 6, 15, 12, 50, 18_000, true, multicast);
        PhaseResult common = new PhaseResult(800, 800, 799, 0, 12, 10, 40, 4_000, true, multicast);
        return new PaperResult(app.option(), system.option(), 8, 4, 1, "2026-11-24T10:00:00Z", 1_000, 1.9, 8.5, bytesPer10k,
            bytesPer10k / 1_000, bytesPer10k > 10_000 ? 45 : 15, 1, List.of(probe), common, 1, List.of(), List.of(), List.of(), Map.of(), null);
    }
}
