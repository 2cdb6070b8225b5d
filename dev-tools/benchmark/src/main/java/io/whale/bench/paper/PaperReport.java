package io.whale.bench.paper;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.whale.bench.BenchSystem;
import io.whale.bench.JitQuiet;
import io.whale.bench.RateStepPlots;
import io.whale.bench.RateStepRun;
import io.whale.bench.Spread;
import io.whale.bench.StepResponse;
import io.whale.examples.smoke.RateSchedule;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.series.Series;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Writes what a run of the paper benchmark measured: per figure {@code figNN.json} (its setting, every series' median
 * and min–max per P, the comparisons with the paper's) and {@code figNN.png}; {@code report.md} and
 * {@code report.html} (the PNGs embedded) with the setting, the method, the headline table at the highest P, each
 * figure, and what bound each run (the machine's CPU or the source host's link).
 */
final class PaperReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final PaperOptions options;
    private final List<PaperResult> results;
    private final List<PaperStepRun> stepRuns;
    private final List<PaperSweepRun> sweepRuns;
    private final List<PaperSummary> summaries;
    private final Map<String, Object> run;

    /** @param run the command, start and end times and the machine, as results.json has them */
    PaperReport(PaperOptions options, List<PaperResult> results, List<PaperStepRun> stepRuns, List<PaperSweepRun> sweepRuns,
                Map<String, Object> run) {
        this.options = options;
        this.results = results;
        this.stepRuns = stepRuns;
        this.sweepRuns = sweepRuns;
        this.summaries = PaperSummary.of(results);
        this.run = run;
    }

    /** Writes every file; returns the series left without data, as "Fig. N: name" (none when the run is complete). */
    List<String> write() throws IOException {
        Path out = options.out();
        List<String> empty = new ArrayList<>();
        ReportDocument doc = new ReportDocument().heading(1, "Whale against the paper's evaluation (SC'21 §5), scaled down")
            .paragraph("Command: `" + run.get("command") + "`; started " + run.get("started") + ", finished " + run.get("finished")
                + "; machine: " + run.get("cpus") + " cores, load average " + run.get("loadAverageAtStart") + " at the start.")
            .paragraph(setting())
            .heading(2, "Method")
            .paragraph(METHOD + (options.atMostOnce() ? AT_MOST_ONCE : ""))
            .heading(2, "Headline: the highest P (" + options.highestMatchers() + ")");
        for (PaperApp app : options.apps()) {
            doc.heading(3, app.label()).table(List.of("system", "carried by", "throughput (records/s)", "× Storm", "capacity (records/s)",
                "latency at the common rate (ms, mean)", "reduction vs Storm", "p99 (ms)"), headline(app));
            if (options.repeats() > 1) {
                List<String> columns = new ArrayList<>(List.of("× Storm's throughput, round by round"));
                for (int r = 1; r <= options.repeats(); r++) {
                    columns.add("round " + r);
                }
                doc.table(columns, headlineRounds(app));
            }
            if (options.matchers().size() > 1) {
                doc.paragraph("Fig. 13's shape: each system's throughput at P = " + options.highestMatchers() + " over its own at P = "
                    + lowestMatchers() + ", round by round, median [min–max].")
                    .table(List.of("system", "at P = " + options.highestMatchers() + " / at P = " + lowestMatchers()), shape(app));
            }
        }
        for (PaperFigure f : options.figures()) {
            empty.addAll(f.rateSteps() ? stepsFigure(f, doc) : f.swept() ? sweepFigure(f, PaperSweep.of(f).orElseThrow(), doc) : figure(f, doc));
        }
        doc.heading(2, "What bound each run").paragraph("Over each run's capacity window: the machine's busy cores (of "
            + run.get("cpus") + "), the cores the broadcast source's host used" + (options.hostCpus() > 0 ? " (of the "
            + options.hostCpus() + " each host is held to)" : " (not held: the hosts share the machine's)") + " and what it sent on its "
            + options.linkMbit() + " Mbit/s link. A run is bound by the link when it sent at " + Math.round(100 * BOUND_SHARE)
            + " % of the link's rate or more, by the source host's CPU when that host used as much of its cores, by the machine "
            + "when its cores were as busy; a link near its rate with cores to spare is network-bound, as the paper's 1 Gbit/s "
            + "Storm baseline was. Every other host is read the same way, each direction of its link apart (a host that receives "
            + "every answer can bind while the source's link has room): the hosts at " + Math.round(100 * BOUND_SHARE)
            + " % of their link or cores or more are listed (median of the repeats; none in runs recorded before the harness read them).")
            .table(List.of("app", "system", "P", "busy cores", "source host cores", "source link Mbit/s", "link use", "bound by",
                "other hosts at their limit", "source bytes per 10,000 records", "repeats with a sustainable rate",
                "paced phases that kept up"), bottlenecks());
        JSON.writeValue(out.resolve("headline.json").toFile(), headlineJson());
        Files.writeString(out.resolve("report.md"), doc.markdown());
        Files.writeString(out.resolve("report.html"), doc.html(out, "Whale: the paper's evaluation"));
        return empty;
    }

    private String setting() {
        return "Setting: " + options.hosts() + " emulated hosts (`whale local-cluster up --hosts " + options.hosts() + "`, one network "
            + "namespace each, links shaped to " + options.linkMbit() + " Mbit/s by a token bucket each way), ZooKeeper, Nimbus and a "
            + "Kafka broker on host 0; W = " + options.workers() + " workers (one per host); matchers P = " + options.matchers()
            + "; " + options.repeats() + " repeat(s) per point, the systems interleaved in each round; warm-up " + options.warmupSeconds()
            + " s (paced phases: settle " + Math.min(options.warmupSeconds(), FeedSchedule.SETTLE_SECONDS) + " s) and measurement "
            + options.measureSeconds() + " s per phase; " + options.probes() + " probe(s) at most in the search for the sustainable rate, "
            + "99th percentile bound " + options.p99BoundMillis() + " ms; data: " + options.records() + " generated records per application"
            + (options.settings().isEmpty() ? "" : "; settings " + options.settings()) + ".";
    }

    private static final String METHOD = "Each run submits the unchanged example application (`whale jar examples/whale-example-"
        + "ridehailing.jar` or `…-stock.jar`) to its system's cluster: stock Apache Storm 2.8.3 (upstream jars from Maven Central, "
        + "`dev-tools/stock-storm`, a cluster of its own with its own broker) or Whale with `whale.woc.enabled=true` over Netty, "
        + "over RDMA (`whale.transport=rdma`; UCX over TCP between the emulated hosts: the cluster allows UCX shared memory for "
        + "the workers of one host, but the transport's endpoints ask for peer error handling, which shared memory lacks, so UCX "
        + "takes the hosts' links, as whale-rdmachannel's `EmulatedHostsChannelTest` checks), and over RDMA along a relay tree "
        + "(`whale.multicast.structure=binomial`, or `nonblocking` with `whale.multicast.max.outdegree=auto`). A feed process on "
        + "host 0 produces the generated records into the run's own topic and reads the topology's committed offsets (its "
        + "consumer group, every 200 ms). It keeps a standing backlog, so the spout never waits for data, and measures nothing "
        + "until the workers' JIT compilers are quiet (their threads at most " + JitQuiet.QUIET_CORES + " of a core together over "
        + JitQuiet.SLICE.toSeconds() + " s, the hosts' CPU not capped yet; " + JitQuiet.MAX_WAIT.toSeconds() + " s at most, "
        + PaperRun.QUICK_JIT_WAIT.toSeconds() + " in the quick run: each run's `jitWarmup` in results.json); then the rate the "
        + "topology drains it is its **capacity** C (at-least-once with the examples' max spout pending 2000), measured window "
        + "after window while it still rises by more than 10 % (or falls by more, as commits held back behind a failed record "
        + "make it) and read from the last: an upper bound. "
        + "Then a **search** finds the **sustainable rate**, as the paper defines its throughput (\"the maximum stream rate … "
        + "that the system can sustain\"): Poisson probes at shares of C, the backlog drained before each — 0.9 C first, then "
        + "0.2 C lower while none keeps up, 0.2 C, 0.4 C, 0.8 C … higher while every one does (past the probes allowed, as many "
        + "again at most, until one falls behind), then halving the bracket between the highest share "
        + "that kept up and the lowest that did not until that one is at most 15 % above it —; a probe keeps up when it started "
        + "behind a fully drained backlog (one behind a backlog its drain gave up on runs again, once), "
        + "its backlog grew by less than 5 % of its offered rate (what it committed within 5 % of what it was offered) and its "
        + "latency's 99th percentile stayed within the bound. The **throughput** is the rate offered to the highest paced phase "
        + "that kept up by the same rules (a probe, or the common phase below) — never what a backlog drained at; when none did, "
        + "no sustainable rate was found and none is plotted (the tables say \"no paced phase kept up\"). Last, a Poisson process at the **common "
        + "rate** — 0.9 × the sustainable rate of the first system of the round (Storm), or of the lowest rate it was offered "
        + "when no probe kept up — where the **latency** is measured: "
        + "from the source's emit to the sink (the reporter's histograms merged over the window). Ratios are per round (the "
        + "same repeat of both systems), then median [min–max] over the rounds; ratios are what carries over from 30 machines "
        + "to one. Over the capacity window the JDK Flight Recorder samples the broadcast source host's workers every "
        + SourceRecording.PERIOD.toMillis() + " ms: the samples on the send path (the source's executor inside Storm's emit "
        + "transfer or Whale's batch of an emit's copies, the transfer and transport threads but the receivers) times the "
        + "period, per record, are Fig. 25's communication time, and the share of them in a Storm Kryo serializer Fig. 26's (Java frames only: a thread in a "
        + "socket write or a UCX call is not sampled). Figs. 11–12 come from runs of their own after each round at the highest "
        + "P: Whale with one stream-slicing key changed (MMS or WTL), measured as the round's runs are. Figs. 23–24 come from "
        + "runs of their own after the rounds, at the highest P: the offered rate steps through 30, 60, 80, 100 and 80 % of "
        + "4/3 of the sequential structure's sustainable rate (the paper's 100k tuples/s over the 75k its sequential multicast "
        + "carried), so that the top steps offer more than the sequential structure carries; of the non-blocking tree's own "
        + "when the sequential structure did not run.";

    /** What an at-most-once run counts instead of committed offsets. */
    private static final String AT_MOST_ONCE = " **These runs are at-most-once** (`topology.acker.executors=0`): no acks, and "
        + "without ackers the Kafka spout commits what it fetches, so the feed counts progress at the sink instead of the "
        + "committed offsets — what the reporter counted, written once a second: ride-hailing's results, one per order, and "
        + "the stock application's records its bolts said they finished — and nothing bounds what the spout holds in "
        + "flight (no max spout pending).";

    private List<List<String>> headline(PaperApp app) {
        int p = options.highestMatchers();
        List<List<String>> rows = new ArrayList<>();
        for (BenchSystem s : options.systems()) {
            Optional<PaperSummary> sum = summary(app, s, p);
            if (sum.isEmpty()) {
                continue;
            }
            rows.add(List.of(s.label(), carriedBy(s), sum.get().throughputPerSecond().format("%.0f"),
                ratio(app, s, BenchSystem.STORM, p, PaperFigure.Metric.THROUGHPUT).format("%.2f×"),
                sum.get().capacityPerSecond().format("%.0f"),
                sum.get().commonMeanMillis().format("%.0f"),
                ratio(app, s, BenchSystem.STORM, p, PaperFigure.Metric.LATENCY).format("%.0f %%"),
                sum.get().commonP99Millis().format("%.0f")));
        }
        return rows;
    }

    /** Each Whale system's throughput over Storm's at the highest P, one column per round ("–" where one was not measured). */
    private List<List<String>> headlineRounds(PaperApp app) {
        int p = options.highestMatchers();
        List<List<String>> rows = new ArrayList<>();
        for (BenchSystem s : options.systems()) {
            if (s.whale() && summary(app, s, p).isPresent()) {
                List<String> row = new ArrayList<>(List.of(s.label()));
                ratioToStorm(app, s, p, PaperResult::throughputPerSecond)
                    .forEach(v -> row.add(Double.isNaN(v) ? "–" : String.format("%.2f×", v)));
                rows.add(row);
            }
        }
        return rows;
    }

    /** Each system's throughput at the highest P over its own at the lowest (Fig. 13's shape). */
    private List<List<String>> shape(PaperApp app) {
        int p = options.highestMatchers();
        return options.systemsOf(app).stream().filter(s -> summary(app, s, p).isPresent())
            .map(s -> List.of(s.label(), Spread.of(ratioToLowestP(app, s, p), Double::doubleValue).format("%.2f×"))).toList();
    }

    private int lowestMatchers() {
        return options.matchers().stream().mapToInt(Integer::intValue).min().orElseThrow();
    }

    /** The system's throughput at {@code p} over its own at the lowest P, round by round (NaN where either is missing). */
    private List<Double> ratioToLowestP(PaperApp app, BenchSystem system, int p) {
        return perRound(r -> of(app, system, p, r, PaperResult::throughputPerSecond),
            r -> of(app, system, lowestMatchers(), r, PaperResult::throughputPerSecond), (at, lowest) -> at / lowest);
    }

    /**
     * {@code headline.json}: one row per application, P and system, each ratio to Storm taken round by round (the same
     * repeat) then summarised as median, min and max: {@code x_storm} the throughput, {@code latency_vs_storm} the mean
     * latency at each system's own sustainable rate (its fastest paced phase that kept up, the paper's comparison),
     * {@code bytes_vs_storm} the source host's bytes per record, {@code x_own_at_lowest_p} the throughput over the system's
     * own at the lowest P (Fig. 13's shape); with what carried it between hosts ({@link #carriedBy}), what sets the regime (the guarantee, tasks per
     * worker, each host's cores) and the rate offered.
     */
    private List<Map<String, Object>> headlineJson() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (PaperApp app : options.apps()) {
            for (int p : options.matchers()) {
                for (BenchSystem s : options.systemsOf(app)) {
                    Optional<PaperSummary> sum = summary(app, s, p);
                    if (sum.isEmpty()) {
                        continue;
                    }
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("app", app.option());
                    row.put("matchers", p);
                    row.put("system", s.option());
                    row.put("transport", carriedBy(s));
                    row.put("guarantee", options.guarantee());
                    row.put("tasks_per_worker", (double) p / options.workers());
                    row.put("host_cpus", options.hostCpus() > 0 ? options.hostCpus() : null);
                    row.put("offered_per_s", spreadJson(sum.get().throughputPerSecond()));
                    row.put("x_storm", perRoundJson(ratioToStorm(app, s, p, PaperResult::throughputPerSecond)));
                    row.put("latency_vs_storm", perRoundJson(ratioToStorm(app, s, p,
                        r -> r.sustainedPhase().map(PhaseResult::meanMillis).orElse(Double.NaN))));
                    row.put("bytes_vs_storm", perRoundJson(ratioToStorm(app, s, p, PaperResult::sourceBytesPer10kRecords)));
                    row.put("x_own_at_lowest_p", perRoundJson(ratioToLowestP(app, s, p)));
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /**
     * What carried the system's traffic between hosts: Netty's TCP, or UCX over TCP for the RDMA transport. The emulated
     * cluster allows UCX shared memory too ({@code whale.rdma.ucx.TLS: tcp,sm,self}, for the workers of one host), which
     * would reach across the hosts' namespaces past their links; the transport's endpoints ask for peer error handling,
     * which shared memory lacks, so UCX takes TCP on the link (whale-rdmachannel's {@code EmulatedHostsChannelTest}
     * fails when it does not).
     */
    static String carriedBy(BenchSystem system) {
        return system.transportOr(BenchSystem.DEFAULT_TRANSPORT).equals("rdma") ? "UCX over TCP" : "Netty over TCP";
    }

    /** {@code figure} of the system over Storm's, round by round (NaN for a round without both measured). */
    private List<Double> ratioToStorm(PaperApp app, BenchSystem system, int p, ToDoubleFunction<PaperResult> figure) {
        return perRound(r -> of(app, system, p, r, figure), r -> of(app, BenchSystem.STORM, p, r, figure), (ours, storm) -> ours / storm);
    }

    /** {@code figure} of the system's run at P in round {@code repeat}; empty when it did not run or measured nothing (NaN). */
    private Optional<Double> of(PaperApp app, BenchSystem system, int p, int repeat, ToDoubleFunction<PaperResult> figure) {
        return result(app, system, p, repeat).map(figure::applyAsDouble).filter(Double::isFinite);
    }

    /** A ratio's median, lowest and highest round, and every round's value in order (null where it was not measured). */
    private static Map<String, Object> perRoundJson(List<Double> rounds) {
        Map<String, Object> json = spreadJson(Spread.of(rounds, Double::doubleValue));
        json.put("per_round", rounds.stream().map(v -> Double.isNaN(v) ? null : v).toList());
        return json;
    }

    private List<PaperResult> runsOf(PaperApp app, BenchSystem system, int p) {
        return results.stream().filter(r -> r.app().equals(app.option()) && r.system().equals(system.option()) && r.matchers() == p)
            .toList();
    }

    /**
     * The rounds of {@code runs} whose common phase fell behind: its latency is in the medians, measured while a backlog
     * grew, so the figure says which.
     */
    private static List<Integer> commonFellBehind(List<PaperResult> runs) {
        return runs.stream().filter(r -> r.common() != null && !r.common().keptUp()).map(PaperResult::repeat).sorted().toList();
    }

    private static String fellBehindNote(List<Integer> rounds) {
        return rounds.isEmpty() ? ""
            : " (the common phase fell behind in round " + rounds.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")";
    }

    private Optional<PaperResult> result(PaperApp app, BenchSystem system, int p, int repeat) {
        return results.stream().filter(r -> r.app().equals(app.option()) && r.system().equals(system.option()) && r.matchers() == p
            && r.repeat() == repeat).findFirst();
    }

    /** Adds the figure to the document and writes its JSON and PNG; returns its series without data. */
    private List<String> figure(PaperFigure f, ReportDocument doc) throws IOException {
        String file = String.format("fig%02d", f.number());
        List<Map<String, Object>> series = new ArrayList<>();
        XYChart chart = new XYChartBuilder().width(900).height(560).title("Fig. " + f.number() + " (Whale, scaled down): " + f.title())
            .xAxisTitle("matchers P (" + options.hosts() + " hosts, " + options.linkMbit() + " Mbit/s)")
            .yAxisTitle(f.metric().label + " (" + f.metric().unit + ")").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setYAxisMin(0.0);
        List<String> empty = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        List<BenchSystem> systems = f.systems().stream().filter(options.systems()::contains).toList();
        Set<BenchSystem> searchedWithoutRate = new HashSet<>();
        for (BenchSystem s : systems) {
            List<Map<String, Object>> points = new ArrayList<>();
            List<Double> xs = new ArrayList<>();
            List<Spread> spreads = new ArrayList<>();
            for (int p : options.matchers()) {
                Optional<PaperSummary> sum = summary(f.app(), s, p);
                if (sum.isPresent() && f.metric() == PaperFigure.Metric.THROUGHPUT && sum.get().noSustainedRateFound()) {
                    // a throughput measured as "none": the runs ran, no paced phase kept up (no point to plot)
                    searchedWithoutRate.add(s);
                    rows.add(List.of(f.seriesName(s), String.valueOf(p), "no paced phase kept up"));
                    continue;
                }
                if (sum.isEmpty() || !sum.get().value(f.metric()).measured()) {
                    continue;
                }
                Spread v = sum.get().value(f.metric());
                List<Integer> fellBehind = f.metric().atCommonRate() ? commonFellBehind(runsOf(f.app(), s, p)) : List.of();
                points.add(Map.of("matchers", p, "median", v.median(), "min", v.min(), "max", v.max(), "repeats", v.n(),
                    "commonFellBehindInRounds", fellBehind));
                xs.add((double) p);
                spreads.add(v);
                rows.add(List.of(f.seriesName(s), String.valueOf(p), v.format(f.metric().format) + fellBehindNote(fellBehind)));
            }
            series.add(Map.of("system", s.option(), "name", f.seriesName(s), "points", points));
            if (!xs.isEmpty()) {
                addWithSpreadBars(chart, f.seriesName(s), xs, spreads);
            } else if (!searchedWithoutRate.contains(s)) {
                empty.add("Fig. " + f.number() + ": " + f.seriesName(s));
            }
        }
        List<Map<String, Object>> comparisons = new ArrayList<>();
        List<List<String>> comparisonRows = new ArrayList<>();
        for (PaperFigure.Comparison c : f.comparisons()) {
            Spread ours = ratio(f.app(), c.system(), c.baseline(), options.highestMatchers(), f.metric());
            comparisons.add(comparisonJson(f, c, ours, "matchers", options.highestMatchers(), "paperAtP480"));
            comparisonRows.add(comparisonRow(f, c, ours));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("figure", f.number());
        json.put("title", f.title());
        json.put("application", f.app().option());
        json.put("metric", f.metric().label + " (" + f.metric().unit + ")");
        json.put("setting", setting());
        json.put("series", series);
        json.put("comparisons", comparisons);
        JSON.writeValue(options.out().resolve(file + ".json").toFile(), json);
        doc.heading(2, "Fig. " + f.number() + ": " + f.title());
        if (!chart.getSeriesMap().isEmpty()) {
            BitmapEncoder.saveBitmap(chart, options.out().resolve(file + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
            doc.image(file + ".png", "Fig. " + f.number())
                .paragraph("Points: the median over the rounds; bars: the lowest and the highest round.");
        } else {
            doc.paragraph(empty.isEmpty() ? "Nothing to plot: no probe of these systems kept up." : "No data: no run of these systems finished.");
        }
        doc.table(List.of("series", "P", f.metric().label + " (" + f.metric().unit + "), median [min–max]"), rows)
            .table(List.of("comparison at P = " + options.highestMatchers(), "ours", "paper, P = 480 on 30 machines"), comparisonRows);
        return empty;
    }

    /**
     * Adds a series of medians and, in its colour and out of the legend, a bar from the lowest to the highest round at
     * each point measured more than once.
     */
    private static void addWithSpreadBars(XYChart chart, String name, List<Double> xs, List<Spread> spreads) {
        Color[] colors = chart.getStyler().getSeriesColors();
        Color color = colors[(int) (chart.getSeriesMap().values().stream().filter(Series::isShowInLegend).count() % colors.length)];
        XYSeries medians = chart.addSeries(name, xs, spreads.stream().map(Spread::median).toList());
        medians.setMarker(SeriesMarkers.CIRCLE).setMarkerColor(color);
        medians.setLineColor(color);
        for (int i = 0; i < xs.size(); i++) {
            Spread v = spreads.get(i);
            if (v.n() > 1) {
                XYSeries bar = chart.addSeries(name + " at " + xs.get(i) + ", lowest to highest", List.of(xs.get(i), xs.get(i)),
                    List.of(v.min(), v.max()));
                bar.setMarker(SeriesMarkers.NONE).setShowInLegend(false);
                bar.setLineColor(color);
            }
        }
    }

    /**
     * A sweep figure (Figs. 11–12): throughput (left axis) and latency at the common rate (right axis) of the sweep's system
     * at the highest P against the swept key, median over the repeats; the shipped value's point is the rounds' run of
     * that system. Returns its series without data.
     */
    private List<String> sweepFigure(PaperFigure f, PaperSweep sweep, ReportDocument doc) throws IOException {
        String file = String.format("fig%02d", f.number());
        int p = options.highestMatchers();
        XYChart chart = new XYChartBuilder().width(900).height(560).title("Fig. " + f.number() + " (Whale, scaled down): " + f.title())
            .xAxisTitle(sweep.axis() + " (P = " + p + ", " + options.hosts() + " hosts, " + options.linkMbit() + " Mbit/s)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setXAxisLogarithmic(sweep == PaperSweep.MMS);
        chart.setYAxisGroupTitle(0, "throughput (records/s)");
        chart.setYAxisGroupTitle(1, "latency at the common rate (ms, mean)");
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        chart.getStyler().setYAxisMin(0, 0.0);
        chart.getStyler().setYAxisMin(1, 0.0);
        List<Double> xs = new ArrayList<>();
        List<Double> throughput = new ArrayList<>();
        List<Double> latency = new ArrayList<>();
        List<Map<String, Object>> points = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (long value : sweep.values(options.quick())) {
            List<PaperResult> runs = value == sweep.shipped() ? runsOf(f.app(), sweep.system(), p)
                : sweepRuns.stream().filter(r -> r.sweep() == sweep && r.value() == value).map(PaperSweepRun::result).toList();
            Optional<PaperSummary> sum = value == sweep.shipped() ? summary(f.app(), sweep.system(), p)
                : PaperSummary.of(runs).stream().findFirst();
            if (sum.isEmpty() || !sum.get().throughputPerSecond().measured()) {
                continue;
            }
            Spread t = sum.get().throughputPerSecond();
            Spread l = sum.get().commonMeanMillis();
            Spread p99 = sum.get().commonP99Millis();
            xs.add((double) value);
            throughput.add(t.median());
            latency.add(l.measured() ? l.median() : Double.NaN);
            points.add(Map.of("value", value, "shipped", value == sweep.shipped(), "throughput", spreadJson(t), "latency", spreadJson(l),
                "p99", spreadJson(p99)));
            rows.add(List.of(value + (value == sweep.shipped() ? " (shipped)" : ""), t.format("%.0f"),
                l.format("%.1f") + fellBehindNote(commonFellBehind(runs)), p99.format("%.0f")));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("figure", f.number());
        json.put("title", f.title());
        json.put("application", f.app().option());
        json.put("system", sweep.system().option());
        json.put("key", sweep.key());
        json.put("unit", sweep.unit());
        json.put("matchers", p);
        json.put("setting", setting());
        json.put("points", points);
        json.put("paper", sweep.paper());
        JSON.writeValue(options.out().resolve(file + ".json").toFile(), json);
        doc.heading(2, "Fig. " + f.number() + ": " + f.title());
        if (xs.isEmpty()) {
            doc.paragraph("No data: no run of " + sweep.system().label() + " at P = " + p + " finished.");
            return List.of("Fig. " + f.number() + ": " + f.seriesName(sweep.system()));
        }
        chart.addSeries("throughput (left)", xs, throughput).setMarker(SeriesMarkers.CIRCLE);
        chart.addSeries("latency (right)", xs, latency).setMarker(SeriesMarkers.DIAMOND).setYAxisGroup(1);
        BitmapEncoder.saveBitmap(chart, options.out().resolve(file + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
        doc.paragraph(String.format("%s at P = %d with `%s` set per run (`whale jar -c %s=…`), each repeat right after its round and at "
                + "its common rate; the shipped value's point is the round's own run. The paper: %s.", sweep.system().label(), p,
                sweep.key(), sweep.key(), sweep.paper()))
            .image(file + ".png", "Fig. " + f.number())
            .table(List.of(sweep.axis(), "throughput (records/s)", "latency at the common rate (ms, mean)", "p99 (ms)"), rows);
        return List.of();
    }

    private static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** A spread as JSON, its keys always in this order (a {@code Map.of} changes it from one JVM to the next). */
    private static Map<String, Object> spreadJson(Spread s) {
        Map<String, Object> json = new LinkedHashMap<>();
        // null where nothing was measured: Jackson writes a NaN as the string "NaN", which no reader takes for a number
        json.put("median", finiteOrNull(s.median()));
        json.put("min", finiteOrNull(s.min()));
        json.put("max", finiteOrNull(s.max()));
        json.put("repeats", s.n());
        return json;
    }

    /**
     * A rate-step figure: the first repeat of each system plotted over time (Fig. 23 what was answered per second
     * against the offered rate, Fig. 24 each second's latency), every repeat in the table of the steps' responses;
     * the comparison is in the step at the base rate (the paper's 100k tuples/s). Returns its series without data.
     */
    private List<String> stepsFigure(PaperFigure f, ReportDocument doc) throws IOException {
        String file = String.format("fig%02d", f.number());
        String title = "Fig. " + f.number() + " (Whale, scaled down): " + f.title();
        List<BenchSystem> systems = f.systems().stream().filter(options.systems()::contains).toList();
        List<PaperStepRun> runs = stepRuns.stream().filter(r -> r.app().equals(f.app().option())).toList();
        List<String> empty = new ArrayList<>();
        List<RateStepRun> plotted = new ArrayList<>();
        for (BenchSystem s : systems) {
            runs.stream().filter(r -> r.system().equals(s.option())).min(Comparator.comparingInt(PaperStepRun::repeat))
                .ifPresentOrElse(r -> plotted.add(r.run()), () -> empty.add("Fig. " + f.number() + ": " + f.seriesName(s)));
        }
        doc.heading(2, "Fig. " + f.number() + ": " + f.title());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("figure", f.number());
        json.put("title", f.title());
        json.put("application", f.app().option());
        json.put("setting", setting());
        json.put("runs", runs);
        if (plotted.isEmpty()) {
            JSON.writeValue(options.out().resolve(file + ".json").toFile(), json);
            doc.paragraph("No data: no rate-step run finished.");
            return empty;
        }
        PaperStepRun first = runs.get(0);
        RateSchedule schedule = RateSchedule.parse(first.run().schedule());
        doc.paragraph(String.format("P = %d, the offered rate (Poisson) stepping through %s %% of the base rate %.0f records/s — "
            + "%s at this P, median over the rounds — %d s per step: %s records/s:seconds. "
            + "Plotted: the first repeat of each; each of its tree switches is a vertical line (run: new d*). The table: "
            + "every repeat, median [min–max].", first.matchers(),
            PaperOptions.STEP_SHARES.stream().map(share -> String.format("%.0f", 100 * share)).collect(Collectors.joining(", ")),
            first.baseRatePerSecond(), first.baseFrom() == null ? "the non-blocking tree's sustainable rate" : first.baseFrom(),
            options.stepSeconds(), first.run().schedule()));
        XYChart chart = f.metric() == PaperFigure.Metric.THROUGHPUT
            ? RateStepPlots.throughput(title, "orders dispatched per second", plotted, schedule)
            : RateStepPlots.latency(title, plotted);
        BitmapEncoder.saveBitmap(chart, options.out().resolve(file + ".png").toString(), BitmapEncoder.BitmapFormat.PNG);
        doc.image(file + ".png", "Fig. " + f.number());
        List<List<String>> rows = new ArrayList<>();
        for (int step = 0; step < schedule.steps(); step++) {
            int at = step;
            for (BenchSystem s : systems) {
                List<StepResponse> responses = runs.stream().filter(r -> r.system().equals(s.option()))
                    .flatMap(r -> r.run().steps().stream()).filter(r -> r.step() == at + 1).toList();
                if (responses.isEmpty()) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of(String.valueOf(at + 1), String.valueOf(schedule.rate(at)), f.seriesName(s),
                    Spread.of(responses, r -> (double) r.switches()).format("%.0f"),
                    Spread.of(responses, r -> orNaN(r.firstSwitchFlippedAfterMillis()))
                        .format("%.0f")));
                if (f.metric() == PaperFigure.Metric.THROUGHPUT) {
                    row.addAll(List.of(Spread.of(responses, StepResponse::secondHalfBroadcastsPerSecond).format("%.0f"),
                        Spread.of(responses, StepResponse::secondHalfCpuCoresBusy).format("%.2f"),
                        Spread.of(responses, StepResponse::secondHalfSourceHostCores).format("%.2f"),
                        Spread.of(responses, StepResponse::secondHalfSourceLinkMbit).format("%.2f")));
                } else {
                    row.addAll(List.of(Spread.of(responses, StepResponse::secondHalfPeakP99Millis).format("%.0f"),
                        Spread.of(responses, r -> orNaN(r.backUnderWaterlineAfterMillis()))
                            .format("%.0f")));
                }
                rows.add(row);
            }
        }
        List<String> columns = new ArrayList<>(List.of("step", "offered (records/s)", "structure", "tree switches",
            "first switch landed after (ms)"));
        columns.addAll(f.metric() == PaperFigure.Metric.THROUGHPUT
            ? List.of("answered per second, second half", "the machine's busy cores, second half",
                "the source host's cores" + (options.hostCpus() > 0 ? " (of " + options.hostCpus() + ")" : "") + ", second half",
                "source link Mbit/s, second half")
            : List.of("peak interval p99 (ms), second half", "queue back under the waterline after (ms)"));
        doc.table(columns, rows);
        List<Map<String, Object>> comparisons = new ArrayList<>();
        List<List<String>> comparisonRows = new ArrayList<>();
        int full = PaperOptions.STEP_SHARES.indexOf(1.0) + 1;
        for (PaperFigure.Comparison c : f.comparisons()) {
            Spread ours = perRepeat(c.system(), c.baseline(), f.metric()::compare, (system, r) -> stepThroughput(system, r, full));
            comparisons.add(comparisonJson(f, c, ours, "step", full, "paper"));
            comparisonRows.add(comparisonRow(f, c, ours));
        }
        json.put("comparisons", comparisons);
        JSON.writeValue(options.out().resolve(file + ".json").toFile(), json);
        if (!comparisonRows.isEmpty()) {
            doc.table(List.of("comparison in step " + full + " (the base rate), second half", "ours",
                "paper, at 100k tuples/s on 30 machines"), comparisonRows);
        }
        return empty;
    }

    /** A time that may not have come (no switch, the queue never back under): NaN, left out of a spread. */
    private static double orNaN(Long millis) {
        return millis == null ? Double.NaN : millis;
    }

    /** What the system answered per second over the second half of {@code step} in repeat {@code repeat}. */
    private Optional<Double> stepThroughput(BenchSystem system, int repeat, int step) {
        return stepRuns.stream().filter(r -> r.system().equals(system.option()) && r.repeat() == repeat)
            .flatMap(r -> r.run().steps().stream()).filter(s -> s.step() == step).findFirst()
            .map(StepResponse::secondHalfBroadcastsPerSecond);
    }

    /** Per round (repeat) at P: {@link PaperFigure.Metric#compare} of the system's value and the baseline's. */
    private Spread ratio(PaperApp app, BenchSystem system, BenchSystem baseline, int p, PaperFigure.Metric metric) {
        return perRepeat(system, baseline, metric::compare, (s, r) -> of(app, s, p, r, metric::of));
    }

    /** {@code compare} of the system's and the baseline's {@code value} (system, repeat) over the repeats. */
    private Spread perRepeat(BenchSystem system, BenchSystem baseline, DoubleBinaryOperator compare,
                             BiFunction<BenchSystem, Integer, Optional<Double>> value) {
        return Spread.of(perRound(r -> value.apply(system, r), r -> value.apply(baseline, r), compare), Double::doubleValue);
    }

    /** {@code compare} of {@code ours} and the {@code baseline} value of each repeat, in order: NaN where either is missing. */
    private List<Double> perRound(IntFunction<Optional<Double>> ours, IntFunction<Optional<Double>> baseline, DoubleBinaryOperator compare) {
        List<Double> rounds = new ArrayList<>();
        for (int r = 1; r <= options.repeats(); r++) {
            Optional<Double> a = ours.apply(r);
            Optional<Double> b = baseline.apply(r);
            rounds.add(a.isPresent() && b.isPresent() && b.get() > 0 ? compare.applyAsDouble(a.get(), b.get()) : Double.NaN);
        }
        return rounds;
    }

    /** A comparison for the figure's JSON: ours at {@code whereKey} = {@code where}, the paper's under {@code paperKey}. */
    private static Map<String, Object> comparisonJson(PaperFigure f, PaperFigure.Comparison c, Spread ours, String whereKey, int where,
                                                      String paperKey) {
        return Map.of("system", c.system().option(), "baseline", c.baseline().option(), whereKey, where,
            "ours", spreadJson(ours),
            paperKey, c.paper(), "unit", f.metric().comparisonUnit().strip());
    }

    /** A comparison as the report's table row: which, ours, the paper's. */
    private static List<String> comparisonRow(PaperFigure f, PaperFigure.Comparison c, Spread ours) {
        String unit = f.metric().comparisonUnit();
        return List.of(f.seriesName(c.system()) + " vs " + f.seriesName(c.baseline()), ours.format(f.metric().comparisonFormat()) + unit,
            c.paper() + unit);
    }

    private Optional<PaperSummary> summary(PaperApp app, BenchSystem system, int p) {
        return summaries.stream().filter(s -> s.app().equals(app.option()) && s.system().equals(system.option()) && s.matchers() == p)
            .findFirst();
    }

    /** A resource used at this share of what it has or more bound the run. */
    private static final double BOUND_SHARE = 0.9;

    private List<List<String>> bottlenecks() {
        List<List<String>> rows = new ArrayList<>();
        for (PaperSummary s : summaries) {
            double linkUse = s.sourceLinkMbit().median() / options.linkMbit();
            List<String> otherHosts = hostsAtTheirLimit(s);
            rows.add(List.of(s.app(), s.system(), String.valueOf(s.matchers()), s.machineCoresBusy().format("%.2f"),
                s.sourceHostCores().format("%.2f"), s.sourceLinkMbit().format("%.2f"), String.format("%.0f %%", 100 * linkUse),
                boundBy(s, linkUse, otherHosts), String.join(", ", otherHosts), s.sourceBytesPer10kRecords().format("%.0f"), s.found(),
                s.kept()));
        }
        return rows;
    }

    /**
     * The hosts other than host 0 (the bridge) whose link sent or received, or whose cores ran, at {@link #BOUND_SHARE}
     * of what they have or more, but the source's sending and its cores (their own columns): "host 4 receives 0.95".
     */
    private List<String> hostsAtTheirLimit(PaperSummary s) {
        List<String> hosts = new ArrayList<>();
        for (int h = 1; h < s.hostTxMbit().size(); h++) {
            if (h != s.sourceHost() && s.hostTxMbit().get(h) >= BOUND_SHARE * options.linkMbit()) {
                hosts.add(String.format("host %d sends %.2f", h, s.hostTxMbit().get(h)));
            }
            if (s.hostRxMbit().get(h) >= BOUND_SHARE * options.linkMbit()) {
                hosts.add(String.format("host %d receives %.2f", h, s.hostRxMbit().get(h)));
            }
        }
        for (int h = 1; h < s.hostCores().size() && options.hostCpus() > 0; h++) {
            if (h != s.sourceHost() && s.hostCores().get(h) >= BOUND_SHARE * options.hostCpus()) {
                hosts.add(String.format("host %d's CPU %.2f", h, s.hostCores().get(h)));
            }
        }
        return hosts;
    }

    /** What the run's medians say bound it: the source's link, its host's CPU quota, the machine's cores, other hosts, or none of them. */
    private String boundBy(PaperSummary s, double linkUse, List<String> otherHosts) {
        List<String> bounds = new ArrayList<>();
        if (linkUse >= BOUND_SHARE) {
            bounds.add("link");
        }
        if (options.hostCpus() > 0 && s.sourceHostCores().median() >= BOUND_SHARE * options.hostCpus()) {
            bounds.add("source host CPU");
        }
        if (s.machineCoresBusy().median() >= BOUND_SHARE * ((Number) run.get("cpus")).doubleValue()) {
            bounds.add("machine CPU");
        }
        if (!otherHosts.isEmpty()) {
            bounds.add("other hosts");
        }
        return bounds.isEmpty() ? "none of these" : String.join(" and ", bounds);
    }
}
