package io.whale.bench.paper;

import io.whale.bench.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The repeats of one application, system and P summarised: capacity, throughput (the sustainable rate, see
 * {@link PaperResult#throughputPerSecond}), latency and multicast latency at the common rate, and over the capacity window the machine's busy
 * cores, the source host's cores (with {@code --host-cpus}), link and bytes per 10,000 records, its workers' send path per record and
 * serialization's share of it; {@code found}: the repeats whose search found a
 * sustainable rate, of those run; {@code kept}: the paced phases (probes and common) that kept up, of those run;
 * {@code hostCores}, {@code hostTxMbit}, {@code hostRxMbit}: each host's cores and link over the capacity window, the
 * median of the repeats host by host (empty when not read); {@code sourceHost}: the first repeat's source host.
 */
record PaperSummary(String app, String system, int matchers, int repeats, Spread capacityPerSecond, Spread throughputPerSecond,
                    Spread commonRatePerSecond, Spread commonMeanMillis, Spread commonP99Millis, Spread commonMulticastMillis,
                    Spread machineCoresBusy, Spread sourceHostCores,
                    Spread sourceLinkMbit, Spread sourceBytesPer10kRecords, Spread sourceSendMicrosPerRecord,
                    Spread sourceSerializationPercent, String found, String kept, int sourceHost, List<Double> hostCores,
                    List<Double> hostTxMbit, List<Double> hostRxMbit) {
    static List<PaperSummary> of(List<PaperResult> results) {
        Map<String, List<PaperResult>> groups = new LinkedHashMap<>();
        for (PaperResult r : results) {
            groups.computeIfAbsent(r.app() + "/" + r.system() + "/" + r.matchers(), k -> new ArrayList<>()).add(r);
        }
        List<PaperSummary> summaries = new ArrayList<>();
        for (List<PaperResult> rs : groups.values()) {
            PaperResult first = rs.get(0);
            List<PhaseResult> common = rs.stream().map(PaperResult::common).toList();
            List<PhaseResult> paced = rs.stream().flatMap(r -> Stream.concat(r.search().stream(), Stream.ofNullable(r.common()))).toList();
            long searched = rs.stream().filter(r -> !r.search().isEmpty()).count();
            long found = rs.stream().filter(PaperResult::sustainedRateFound).count();
            summaries.add(new PaperSummary(first.app(), first.system(), first.matchers(), rs.size(),
                Spread.of(rs, PaperResult::capacityPerSecond), Spread.of(rs, PaperResult::throughputPerSecond),
                Spread.of(common, PhaseResult::ratePerSecond), Spread.of(common, PhaseResult::meanMillis),
                Spread.of(common, PhaseResult::p99Millis), Spread.of(common, PhaseResult::multicastMillis),
                Spread.of(rs, PaperResult::machineCoresBusy), Spread.of(rs, PaperResult::sourceHostCores),
                Spread.of(rs, PaperResult::sourceLinkMbit), Spread.of(rs, PaperResult::sourceBytesPer10kRecords),
                Spread.of(rs, PaperResult::sourceSendMicrosPerRecord), Spread.of(rs, PaperResult::sourceSerializationPercent),
                searched == 0 ? "–" : found + "/" + searched, paced.stream().filter(PhaseResult::keptUp).count() + "/" + paced.size(),
                first.sourceHost(), perHost(rs, PaperResult::hostCores), perHost(rs, PaperResult::hostTxMbit),
                perHost(rs, PaperResult::hostRxMbit)));
        }
        return summaries;
    }

    /** Host by host, the median over the repeats that read it. */
    private static List<Double> perHost(List<PaperResult> repeats, Function<PaperResult, List<Double>> figure) {
        int hosts = repeats.stream().mapToInt(r -> figure.apply(r).size()).max().orElse(0);
        List<Double> medians = new ArrayList<>(hosts);
        for (int h = 0; h < hosts; h++) {
            int host = h;
            medians.add(Spread.of(repeats.stream().filter(r -> figure.apply(r).size() > host).toList(),
                r -> figure.apply(r).get(host)).median());
        }
        return medians;
    }

    /** Whether the repeats ran searches and none found a sustainable rate: a result, not a missing run. */
    boolean noSustainedRateFound() {
        return found.startsWith("0/");
    }

    /** The figure's value: throughput, latency or multicast latency (means at the common rate), the source host's traffic or send path. */
    Spread value(PaperFigure.Metric metric) {
        return switch (metric) {
            case THROUGHPUT -> throughputPerSecond;
            case LATENCY -> commonMeanMillis;
            case MULTICAST_LATENCY -> commonMulticastMillis;
            case TRAFFIC -> sourceBytesPer10kRecords;
            case SEND_TIME -> sourceSendMicrosPerRecord;
            case SERIALIZATION_SHARE -> sourceSerializationPercent;
        };
    }
}
