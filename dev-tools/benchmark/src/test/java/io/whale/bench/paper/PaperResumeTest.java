package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.whale.bench.BenchSystem;
import io.whale.bench.JitWatch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaperResumeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldKeepOnlyTheRoundsThatHaveEverySystem() {
        PaperOptions options = PaperOptions.parse("--quick", "--resume");
        List<PaperResult> results = new ArrayList<>(round(options, PaperApp.RIDEHAILING, 8, 1));
        results.add(result(PaperApp.STOCK, BenchSystem.STORM, 8, 1));

        List<PaperResult> kept = PaperResume.complete(results, options);

        assertEquals(round(options, PaperApp.RIDEHAILING, 8, 1), kept, "the stock round was cut off after Storm: run again whole");
        assertTrue(PaperResume.done(results, options, PaperApp.RIDEHAILING, 8, 1));
        assertFalse(PaperResume.done(results, options, PaperApp.STOCK, 8, 1));
        assertFalse(PaperResume.done(results, options, PaperApp.RIDEHAILING, 16, 1));
    }

    @Test
    void shouldReadBackWhatTheRunSaved(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString());
        List<PaperResult> saved = round(options, PaperApp.STOCK, 8, 1);
        write(dir, options, saved);

        PaperOptions resumed = PaperOptions.parse("--quick", "--out", dir.toString(), "--resume");

        assertEquals(saved, PaperResume.load(dir.resolve("results.json"), resumed, JSON));
    }

    @Test
    void shouldReadARunRecordedBeforeTheJitWaitAsHavingNone(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString());
        write(dir, options, round(options, PaperApp.STOCK, 8, 1));
        Path file = dir.resolve("results.json");
        ObjectNode saved = (ObjectNode) JSON.readTree(file.toFile());
        saved.withArray("results").forEach(r -> ((ObjectNode) r).remove("jitWarmup"));
        JSON.writeValue(file.toFile(), saved);

        List<PaperResult> loaded = PaperResume.load(file, PaperOptions.parse("--quick", "--out", dir.toString(), "--resume"), JSON);

        assertFalse(loaded.isEmpty());
        loaded.forEach(r -> assertNull(r.jitWarmup(), "a run of 2026-12-02 or before: no JIT wait"));
    }

    @Test
    void shouldRefuseToMixResultsOfOtherOptions(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString());
        write(dir, options, round(options, PaperApp.STOCK, 8, 1));

        PaperOptions other = PaperOptions.parse("--quick", "--out", dir.toString(), "--link-mbit", "5", "--resume");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> PaperResume.load(dir.resolve("results.json"), other, JSON));
        assertTrue(e.getMessage().contains("was made with other options"), e.getMessage());
        assertEquals(List.of(), PaperResume.load(dir.resolve("none.json"), other, JSON), "nothing to resume: everything runs");
    }

    @Test
    void shouldResumeWhenOnlyTheFiguresDrawnDiffer(@TempDir Path dir) throws Exception {
        PaperOptions before = PaperOptions.parse("--out", dir.toString(), "--figures", "13,14,15,16,17,18,19,20");
        List<PaperResult> saved = round(before, PaperApp.STOCK, 8, 1);
        write(dir, before, saved);

        PaperOptions allFigures = PaperOptions.parse("--out", dir.toString(), "--resume");
        PaperOptions fewerSystems = PaperOptions.parse("--out", dir.toString(), "--figures", "13,14,15,16", "--resume");

        assertEquals(saved, PaperResume.load(dir.resolve("results.json"), allFigures, JSON), "Figs. 27-28 come from the same rounds");
        assertThrows(IllegalArgumentException.class, () -> PaperResume.load(dir.resolve("results.json"), fewerSystems, JSON),
            "without the tree figures a round runs no binomial tree");
    }

    @Test
    void shouldKeepTheRoundsOfEachPWhenAnotherPIsAdded(@TempDir Path dir) throws Exception {
        PaperOptions before = PaperOptions.parse("--quick", "--out", dir.toString(), "--matchers", "128");
        List<PaperResult> saved = round(before, PaperApp.RIDEHAILING, 128, 1);
        write(dir, before, saved);

        PaperOptions withP16 = PaperOptions.parse("--quick", "--out", dir.toString(), "--matchers", "16,128", "--resume");

        List<PaperResult> kept = PaperResume.load(dir.resolve("results.json"), withP16, JSON);
        assertEquals(saved, kept, "P = 128's round is measured alike with P = 16 beside it");
        assertTrue(PaperResume.done(kept, withP16, PaperApp.RIDEHAILING, 128, 1));
        assertFalse(PaperResume.done(kept, withP16, PaperApp.RIDEHAILING, 16, 1), "P = 16 runs");
    }

    @Test
    void shouldKeepTheRoundsMeasuredWhenMoreRoundsAreAsked(@TempDir Path dir) throws Exception {
        PaperOptions twoRounds = PaperOptions.parse("--quick", "--out", dir.toString(), "--repeats", "2");
        List<PaperResult> saved = new ArrayList<>(round(twoRounds, PaperApp.RIDEHAILING, 8, 1));
        saved.addAll(round(twoRounds, PaperApp.RIDEHAILING, 8, 2));
        write(dir, twoRounds, saved);

        PaperOptions threeRounds = PaperOptions.parse("--quick", "--out", dir.toString(), "--repeats", "3", "--resume");

        List<PaperResult> kept = PaperResume.load(dir.resolve("results.json"), threeRounds, JSON);
        assertEquals(saved, kept, "a round is measured alike whatever the number of rounds");
        assertTrue(PaperResume.done(kept, threeRounds, PaperApp.RIDEHAILING, 8, 2));
        assertFalse(PaperResume.done(kept, threeRounds, PaperApp.RIDEHAILING, 8, 3), "round 3 runs");
    }

    @Test
    void shouldKeepOneApplicationsRoundsWhenTheOtherIsAdded(@TempDir Path dir) throws Exception {
        PaperOptions rideHailing = PaperOptions.parse("--out", dir.toString(), "--figures", "13,14,17,18,21,25,26,27", "--matchers", "128");
        List<PaperResult> saved = round(rideHailing, PaperApp.RIDEHAILING, 128, 1);
        write(dir, rideHailing, saved);

        PaperOptions stock = PaperOptions.parse("--out", dir.toString(), "--figures", "15,16,19,20,22,28", "--matchers", "128", "--resume");
        PaperOptions both = PaperOptions.parse("--out", dir.toString(), "--matchers", "128", "--resume");

        assertEquals(saved, PaperResume.load(dir.resolve("results.json"), stock, JSON), "the stock rounds run the same systems");
        assertTrue(PaperResume.done(saved, both, PaperApp.RIDEHAILING, 128, 1), "kept for the report of every figure");
        assertFalse(PaperResume.done(saved, both, PaperApp.STOCK, 128, 1));
    }

    @Test
    void shouldKeepTheRateStepRunsOfTheScheduleTheKeptRoundsSetWhateverTheStepLengthAskedNow(@TempDir Path dir) throws Exception {
        PaperOptions before = PaperOptions.parse("--quick", "--out", dir.toString());
        List<PaperResult> saved = round(before, PaperApp.RIDEHAILING, 8, 1);
        PaperStepRun same = MadeUpStepRuns.run(BenchSystem.WOC_RDMA, 1, "30:4,60:4,80:4,100:4,80:4", 75, false);
        PaperStepRun other = MadeUpStepRuns.run(BenchSystem.WOC_RDMA_NONBLOCK, 1, "45:4,90:4,120:4,150:4,120:4", 150, true);
        write(dir, before, saved, List.of(same, other));

        PaperOptions longerSteps = PaperOptions.parse("--quick", "--out", dir.toString(), "--step-s", "8", "--resume");

        assertEquals(saved, PaperResume.load(dir.resolve("results.json"), longerSteps, JSON), "the rounds do not depend on the steps");
        List<PaperStepRun> kept = PaperResume.kept(dir.resolve("results.json"), longerSteps, JSON).stepRuns();
        assertEquals(List.of(same), kept.stream().filter(r -> PaperResume.ranSchedule(r, "30:4,60:4,80:4,100:4,80:4")).toList(),
            "read back whole, the other schedule's left to run again");
    }

    @Test
    void shouldKeepTheRateStepRunsWhenTheFiguresAskedNowDoNotDrawThem(@TempDir Path dir) throws Exception {
        PaperOptions before = PaperOptions.parse("--out", dir.toString(), "--matchers", "128");
        List<PaperResult> saved = round(before, PaperApp.RIDEHAILING, 128, 1);
        List<PaperStepRun> steps = List.of(MadeUpStepRuns.run(BenchSystem.WOC_RDMA, 1, "30:4,60:4,80:4,100:4,80:4", 75, false),
            MadeUpStepRuns.run(BenchSystem.WOC_RDMA_NONBLOCK, 1, "30:4,60:4,80:4,100:4,80:4", 75, true));
        write(dir, before, saved, steps);

        PaperOptions roundsOnly = PaperOptions.parse("--out", dir.toString(), "--figures", "13,14,17,18,21,25,26,27", "--matchers", "16",
            "--resume");

        PaperResume.Kept kept = PaperResume.kept(dir.resolve("results.json"), roundsOnly, JSON);
        assertFalse(roundsOnly.rateSteps(), "this run measures no rate steps");
        assertEquals(saved, kept.results(), "P = 128's round is kept beside the P = 16 asked now");
        assertEquals(steps, kept.stepRuns(), "saved again with the new rounds, not dropped from results.json");
    }

    @Test
    void shouldKeepTheSweepRunsOfTheKeptRoundsOnly(@TempDir Path dir) throws Exception {
        PaperOptions options = PaperOptions.parse("--quick", "--out", dir.toString());
        List<PaperResult> saved = round(options, PaperApp.RIDEHAILING, 8, 1);
        PaperSweepRun ofKeptRound = new PaperSweepRun(PaperSweep.MMS, 4_096,
            result(PaperApp.RIDEHAILING, BenchSystem.WOC_RDMA_NONBLOCK, 8, 1));
        PaperSweepRun ofCutRound = new PaperSweepRun(PaperSweep.WTL, 10, result(PaperApp.RIDEHAILING, BenchSystem.WOC_RDMA_NONBLOCK, 8, 2));
        write(dir, options, saved, List.of(), List.of(ofKeptRound, ofCutRound));

        List<PaperResult> kept = PaperResume.load(dir.resolve("results.json"), PaperOptions.parse("--quick", "--out", dir.toString(),
            "--resume"), JSON);

        assertEquals(List.of(ofKeptRound), PaperResume.sweepRuns(dir.resolve("results.json"), kept, JSON),
            "repeat 2's round runs again, and its sweep at its new common rate");
    }

    private static void write(Path dir, PaperOptions options, List<PaperResult> results) throws Exception {
        write(dir, options, results, List.of());
    }

    private static void write(Path dir, PaperOptions options, List<PaperResult> results, List<PaperStepRun> stepRuns) throws Exception {
        write(dir, options, results, stepRuns, List.of());
    }

    private static void write(Path dir, PaperOptions options, List<PaperResult> results, List<PaperStepRun> stepRuns,
                              List<PaperSweepRun> sweepRuns) throws Exception {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("options", options);
        json.put("results", results);
        json.put("rateSteps", stepRuns);
        json.put("sweeps", sweepRuns);
        JSON.writeValue(dir.resolve("results.json").toFile(), json);
    }

    private static List<PaperResult> round(PaperOptions options, PaperApp app, int p, int repeat) {
        return options.systemsOf(app).stream().map(s -> result(app, s, p, repeat)).toList();
    }

    private static PaperResult result(PaperApp app, BenchSystem system, int p, int repeat) {
        PhaseResult probe = new PhaseResult(900, 901, 890, 6, 15, 12, 50, 18_000, true, 30);
        PhaseResult common = new PhaseResult(800, 800, 799, 0, 12, 10, 40, 4_000, true, 30);
        return new PaperResult(app.option(), system.option(), p, 4, repeat, "2026-11-24T10:00:00Z", 1_000, 1.9, 8.5, 7_000, 12.5, 40, 1,
            List.of(probe), common, 1, List.of(), List.of(), List.of(), Map.of(), new JitWatch.Warmed(35, 0.02, true));
    }
}
