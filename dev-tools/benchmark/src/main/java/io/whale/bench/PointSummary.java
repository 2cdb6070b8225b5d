package io.whale.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The repeats of one point (same label and P) reduced to median, minimum and maximum, and the ratios the issue's
 * targets are stated in: Whale with WOC on against stock Storm and against WOC off, at the same P, W, wait setting,
 * offered rate and (for WOC off) transport. {@code machineCoresBusy} and {@code sourceLinkMbit} say what bound the
 * point (the CPU or the spout's host's link).
 */
record PointSummary(String label, int matchers, int workers, String system, String transport, String waitSetting,
                    double offeredRatePerSecond, int repeats, Spread emittedPerSecond, Spread deliveriesPerSecond,
                    Spread backlogGrowthPerSecond, Spread p50Millis, Spread p99Millis, Spread sourceCpuMicrosPerTuple,
                    Spread wireBytesPerTuple, Spread machineCoresBusy, Spread sourceLinkMbit, Spread wireBytesPerBroadcast) {

    static List<PointSummary> of(List<PointResult> results) {
        Map<String, List<PointResult>> byPoint = new LinkedHashMap<>();
        results.forEach(r -> byPoint.computeIfAbsent(r.label() + "|" + r.matchers() + "|" + r.offeredRatePerSecond(),
            k -> new ArrayList<>()).add(r));
        List<PointSummary> summaries = new ArrayList<>();
        byPoint.values().forEach(rs -> {
            PointResult first = rs.get(0);
            summaries.add(new PointSummary(first.label(), first.matchers(), first.workers(), first.system(), first.transport(),
                first.waitSetting(), first.offeredRatePerSecond(), rs.size(), Spread.of(rs, PointResult::emittedPerSecond),
                Spread.of(rs, PointResult::deliveriesPerSecond), Spread.of(rs, PointResult::backlogGrowthPerSecond),
                Spread.of(rs, PointResult::p50Millis), Spread.of(rs, PointResult::p99Millis),
                Spread.of(rs, PointResult::sourceCpuMicrosPerTuple), Spread.of(rs, PointResult::wireBytesPerTuple),
                Spread.of(rs, PointResult::machineCoresBusy), Spread.of(rs, PointResult::sourceLinkMbit),
                Spread.of(rs, PointResult::wireBytesPerBroadcast)));
        });
        return summaries;
    }

    static final String HEADER = String.format("%-30s %4s %9s %3s %34s %34s %28s", "run", "P", "offered/s", "n",
        "deliveries/s median [min–max]", "emitted/s median [min–max]", "p99 ms median [min–max]");

    String row() {
        return String.format("%-30s %4d %9s %3d %34s %34s %28s", label, matchers,
            offeredRatePerSecond > 0 ? String.format("%.0f", offeredRatePerSecond) : "unpaced", repeats,
            deliveriesPerSecond.format("%.0f"), emittedPerSecond.format("%.0f"), p99Millis.format("%.1f"));
    }

    /**
     * WOC on against stock, WOC off and WOC on without its frame window or with it fixed, and each relay tree against WOC on (its
     * {@code sequential} frames) with the wire bytes per broadcast beside, one line per pair in the same run.
     */
    static List<String> comparisons(List<PointSummary> summaries) {
        List<String> lines = new ArrayList<>();
        for (PointSummary on : summaries) {
            if (!on.system().equals(BenchSystem.WOC.option())) {
                continue;
            }
            on.peer(summaries, BenchSystem.STORM, BenchSystem.DEFAULT_TRANSPORT).ifPresent(s -> lines.add(on.versus(s)));
            on.peer(summaries, BenchSystem.WOC_OFF, on.transport()).ifPresent(s -> lines.add(on.versus(s)));
            on.peer(summaries, BenchSystem.WOC_NO_WINDOW, on.transport()).ifPresent(s -> lines.add(on.versus(s)));
            on.peer(summaries, BenchSystem.WOC_FIXED_WINDOW, on.transport()).ifPresent(s -> lines.add(on.versus(s)));
            for (BenchSystem tree : List.of(BenchSystem.WOC_BINOMIAL, BenchSystem.WOC_NONBLOCK_D2, BenchSystem.WOC_NONBLOCK)) {
                on.peer(summaries, tree, on.transport()).ifPresent(t -> lines.add(t.versus(on) + String.format(
                    ", wire bytes per broadcast x%.2f", t.wireBytesPerBroadcast().median() / on.wireBytesPerBroadcast().median())));
            }
        }
        return lines;
    }

    private Optional<PointSummary> peer(List<PointSummary> summaries, BenchSystem system, String peerTransport) {
        return summaries.stream().filter(s -> s.system().equals(system.option()) && s.matchers() == matchers
            && s.workers() == workers && s.waitSetting().equals(waitSetting) && s.offeredRatePerSecond() == offeredRatePerSecond
            && s.transport().equals(peerTransport)).findFirst();
    }

    private String versus(PointSummary other) {
        return String.format("P=%d W=%d wait %s%s: %s / %s — deliveries/s x%.2f, p50 x%.2f, p99 x%.2f (medians of %d and %d)",
            matchers, workers, waitSetting, offeredRatePerSecond > 0 ? " rate " + Math.round(offeredRatePerSecond) + "/s" : "",
            label, other.label(), deliveriesPerSecond.median() / other.deliveriesPerSecond().median(),
            p50Millis.median() / other.p50Millis().median(), p99Millis.median() / other.p99Millis().median(), repeats,
            other.repeats());
    }

    static String table(List<PointSummary> summaries) {
        StringBuilder s = new StringBuilder(HEADER).append('\n');
        summaries.forEach(p -> s.append(p.row()).append('\n'));
        List<String> comparisons = comparisons(summaries);
        if (!comparisons.isEmpty()) {
            s.append('\n');
            comparisons.forEach(c -> s.append(c).append('\n'));
        }
        return s.toString();
    }
}
