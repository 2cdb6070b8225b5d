package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code --resume}: the full run takes hours, more than one sitting; it can go on where an earlier run with the same
 * options stopped (the figures aside). The rounds {@code results.json} holds whole (every system of the round) are kept; a round cut off
 * half-way is run again whole, since its common rate comes from its Storm run, and so are the sweeps of Figs. 11–12 that ran at
 * that rate. The rate-step runs of Figs. 23–24 are kept, also by a run whose figures do not draw them; one that measures
 * them runs again those that ran other steps than the kept rounds set now (another schedule).
 */
final class PaperResume {
    private PaperResume() {
    }

    /** What a resumed run keeps of an earlier one's {@code results.json}: it saves them again beside its own. */
    record Kept(List<PaperResult> results, List<PaperSweepRun> sweepRuns, List<PaperStepRun> stepRuns) {
    }

    /**
     * The complete rounds in {@code resultsJson}, their sweeps and every rate-step run, whichever figures the options
     * draw (the file is written anew with what is kept); fails when it was made with other options.
     */
    static Kept kept(Path resultsJson, PaperOptions options, ObjectMapper json) throws IOException {
        return around(load(resultsJson, options, json), resultsJson, json);
    }

    /** Every run in {@code resultsJson}, a round cut off or with a failed run included (a report drawn again). */
    static Kept saved(Path resultsJson, PaperOptions options, ObjectMapper json) throws IOException {
        return around(all(resultsJson, options, json), resultsJson, json);
    }

    private static Kept around(List<PaperResult> results, Path resultsJson, ObjectMapper json) throws IOException {
        return new Kept(results, sweepRuns(resultsJson, results, json), stepRuns(resultsJson, json));
    }

    /** The results of the complete rounds in {@code resultsJson}; fails when it was made with other options. */
    static List<PaperResult> load(Path resultsJson, PaperOptions options, ObjectMapper json) throws IOException {
        return complete(all(resultsJson, options, json), options);
    }

    /** Every result in {@code resultsJson}, a round cut off or with a failed run included; fails when made with other options. */
    private static List<PaperResult> all(Path resultsJson, PaperOptions options, ObjectMapper json) throws IOException {
        if (!Files.exists(resultsJson)) {
            return List.of();
        }
        JsonNode saved = json.readTree(resultsJson.toFile());
        JsonNode earlier = measuring(saved.path("options"));
        // through text, as the earlier run's were written: a tree made straight from the record would hold a long
        // where the file's reads back as an int
        JsonNode now = measuring(json.readTree(json.writeValueAsString(options)));
        if (!earlier.equals(now)) {
            throw new IllegalArgumentException(resultsJson + " was made with other options (" + earlier
                + "), not " + now + "; run with those, or choose another --out");
        }
        List<PaperResult> results = new ArrayList<>();
        for (JsonNode r : saved.path("results")) {
            results.add(json.treeToValue(r, PaperResult.class));
        }
        return results;
    }

    /** Every rate-step run in {@code resultsJson} (read after {@link #load} accepted the file). */
    private static List<PaperStepRun> stepRuns(Path resultsJson, ObjectMapper json) throws IOException {
        List<PaperStepRun> runs = new ArrayList<>();
        if (Files.exists(resultsJson)) {
            for (JsonNode r : json.readTree(resultsJson.toFile()).path("rateSteps")) {
                runs.add(json.treeToValue(r, PaperStepRun.class));
            }
        }
        return runs;
    }

    /** Whether a kept rate-step run counts for the steps {@code schedule} sets now; one that does not runs again. */
    static boolean ranSchedule(PaperStepRun run, String schedule) {
        return run.run().schedule().equals(schedule);
    }

    /** The sweep runs of Figs. 11–12 in {@code resultsJson} that ran after one of the {@code kept} rounds (at its common rate). */
    static List<PaperSweepRun> sweepRuns(Path resultsJson, List<PaperResult> kept, ObjectMapper json) throws IOException {
        List<PaperSweepRun> runs = new ArrayList<>();
        if (Files.exists(resultsJson)) {
            for (JsonNode r : json.readTree(resultsJson.toFile()).path("sweeps")) {
                PaperSweepRun run = json.treeToValue(r, PaperSweepRun.class);
                PaperResult result = run.result();
                if (kept.stream().anyMatch(k -> k.app().equals(result.app()) && k.matchers() == result.matchers() && k.repeat() == result.repeat())) {
                    runs.add(run);
                }
            }
        }
        return runs;
    }

    /** Of {@code results}, those of rounds (app, P, repeat) that have a result of every system the round runs. */
    static List<PaperResult> complete(List<PaperResult> results, PaperOptions options) {
        return results.stream().filter(r -> done(results, options, PaperApp.byOption(r.app()), r.matchers(), r.repeat())).toList();
    }

    static boolean done(List<PaperResult> results, PaperOptions options, PaperApp app, int matchers, int repeat) {
        Set<String> measured = results.stream().filter(r -> r.app().equals(app.option()) && r.matchers() == matchers && r.repeat() == repeat)
            .map(PaperResult::system).collect(Collectors.toSet());
        return options.systemsOf(app).stream().allMatch(s -> measured.contains(s.option()));
    }

    /**
     * The options that decide what a round measures: all but {@code resume} and {@code reportOnly}, the figures, which
     * are drawn from the rounds afterwards (the systems a round runs, which the figures choose, are among those compared),
     * the rate steps' length, which the rate-step runs' schedule carries, the P values and applications and the number
     * of rounds: a round is one application's at one P, measured alike whichever others the lists hold and however many
     * rounds follow it, so that a run can add a P, the other application or rounds to those an earlier one measured.
     */
    private static JsonNode measuring(JsonNode options) {
        JsonNode copy = options.deepCopy();
        if (copy instanceof ObjectNode o) {
            o.remove(List.of("resume", "reportOnly", "figures", "stepSeconds", "matchers", "apps", "repeats"));
        }
        return copy;
    }
}
