package io.whale.bench.paper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The repeats of one application, system and P summarised: capacity, latency at the common rate and at the system's
 * own load, and over the capacity window the machine's busy cores, the source host's link and its bytes per 10,000
 * records; {@code sustained}: the paced phases whose backlog stayed flat, of those run.
 */
record PaperSummary(String app, String system, int matchers, int repeats, Spread capacityPerSecond, Spread commonRatePerSecond,
                    Spread commonMeanMillis, Spread commonP99Millis, Spread ownMeanMillis, Spread ownP99Millis,
                    Spread machineCoresBusy, Spread sourceLinkMbit, Spread sourceBytesPer10kRecords, String sustained) {
    /** A paced phase whose backlog grew by less than this share of its offered rate kept up. */
    static final double FLAT_BACKLOG_SHARE = 0.05;

    static List<PaperSummary> of(List<PaperResult> results) {
        Map<String, List<PaperResult>> groups = new LinkedHashMap<>();
        for (PaperResult r : results) {
            groups.computeIfAbsent(r.app() + "/" + r.system() + "/" + r.matchers(), k -> new ArrayList<>()).add(r);
        }
        List<PaperSummary> summaries = new ArrayList<>();
        for (List<PaperResult> rs : groups.values()) {
            PaperResult first = rs.get(0);
            List<PhaseResult> common = rs.stream().map(PaperResult::common).toList();
            List<PhaseResult> own = rs.stream().map(PaperResult::own).toList();
            long paced = rs.stream().mapToLong(r -> (r.own() == null ? 0 : 1) + (r.common() == null ? 0 : 1)).sum();
            long kept = rs.stream().mapToLong(r -> (r.own() != null && r.own().sustained(FLAT_BACKLOG_SHARE) ? 1 : 0)
                + (r.common() != null && r.common().sustained(FLAT_BACKLOG_SHARE) ? 1 : 0)).sum();
            summaries.add(new PaperSummary(first.app(), first.system(), first.matchers(), rs.size(),
                Spread.of(rs, PaperResult::capacityPerSecond), Spread.of(common, PhaseResult::ratePerSecond),
                Spread.of(common, PhaseResult::meanMillis), Spread.of(common, PhaseResult::p99Millis),
                Spread.of(own, PhaseResult::meanMillis), Spread.of(own, PhaseResult::p99Millis),
                Spread.of(rs, PaperResult::machineCoresBusy), Spread.of(rs, PaperResult::sourceLinkMbit),
                Spread.of(rs, PaperResult::sourceBytesPer10kRecords), kept + "/" + paced));
        }
        return summaries;
    }

    /** The figure's value: throughput (capacity) or latency (mean at the common rate). */
    Spread value(PaperFigure.Metric metric) {
        return metric == PaperFigure.Metric.THROUGHPUT ? capacityPerSecond : commonMeanMillis;
    }
}
