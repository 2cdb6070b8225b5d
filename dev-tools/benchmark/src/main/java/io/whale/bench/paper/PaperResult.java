package io.whale.bench.paper;

import io.whale.bench.JitWatch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one run measured. {@code capacityPerSecond}: the records the topology drained per second from a standing
 * backlog (its consumer group's committed offsets), an upper bound of what it sustains; over that window the machine's
 * busy cores, the broadcast source's host's link (Mbit/s sent) and its bytes sent per 10,000 records drained at that
 * rate, and the CPU its workers spent on the send path per record drained (µs) and serialization's share of it (%)
 * ({@link SendPathSamples}; NaN when not recorded). {@code search}: the Poisson probes of the search for the sustainable rate, in the order run; {@code common}: a
 * Poisson phase at the rate common to every system of the same application and P (null when none was run).
 * {@code dataPasses}: how often the feed read its data file (more than 1: records repeat). {@code hostCores}: the cores
 * each emulated host used over the capacity window, host 0 first, when each had its own ({@code --host-cpus}; empty
 * when they shared the machine's). {@code hostTxMbit}, {@code hostRxMbit}: what each emulated host's link sent and
 * received over the capacity window (Mbit/s), host 0 (the bridge) first; empty on one host, and in runs recorded before it read them.
 * {@code workerLosses}: what the workers counted as lost over the whole run ({@link WorkerLosses}), by counter; empty when
 * nothing was, and in runs recorded before 2026-12-01. {@code jitWarmup}: how long the driver waited, from the
 * topology's first results, for its workers' JIT compilers before releasing the feed into its measured phases, and
 * whether they were quiet then ({@link JitWatch}); null in runs recorded before 2026-12-02 (they started measuring at
 * the first results, with the compilers busy: on 2e345a1 they took 16–32 s of each Whale worker's 48–85 s of CPU over a run).
 */
record PaperResult(String app, String system, int matchers, int workers, int repeat, String started, double capacityPerSecond,
                   double machineCoresBusy, double sourceLinkMbit, double sourceBytesPer10kRecords, double sourceSendMicrosPerRecord,
                   double sourceSerializationPercent, int sourceHost,
                   List<PhaseResult> search, PhaseResult common, long dataPasses, List<Double> hostCores,
                   List<Double> hostTxMbit, List<Double> hostRxMbit, Map<String, Long> workerLosses, JitWatch.Warmed jitWarmup) {
    PaperResult {
        search = search == null ? List.of() : List.copyOf(search);
        hostCores = hostCores == null ? List.of() : List.copyOf(hostCores);
        hostTxMbit = hostTxMbit == null ? List.of() : List.copyOf(hostTxMbit);
        hostRxMbit = hostRxMbit == null ? List.of() : List.copyOf(hostRxMbit);
        workerLosses = workerLosses == null ? Map.of() : Collections.unmodifiableSortedMap(new TreeMap<>(workerLosses));
    }

    /**
     * The throughput reported: {@link SustainedRate#of} the paced phases (NaN when none kept up), the capacity without a
     * search. The common phase counts beside the probes: it too offers a Poisson rate after a drained backlog, and a
     * system that drains a standing backlog slower than it keeps up with a paced rate (Whale over RDMA did, 2026-11-28)
     * would otherwise report the probes' lower rate though it kept up with the common one.
     */
    double throughputPerSecond() {
        return SustainedRate.of(paced(), capacityPerSecond);
    }

    /** What rates are set as shares of (the rate steps): {@link SustainedRate#basis} the paced phases. */
    double rateBasisPerSecond() {
        return SustainedRate.basis(paced(), capacityPerSecond);
    }

    /** Whether a paced phase kept up: then {@link #throughputPerSecond} is a sustainable rate. */
    boolean sustainedRateFound() {
        return paced().stream().anyMatch(PhaseResult::keptUp);
    }

    /** The paced phase whose offered rate is {@link #throughputPerSecond}: the fastest that kept up; empty when none did. */
    Optional<PhaseResult> sustainedPhase() {
        return paced().stream().filter(PhaseResult::keptUp).max(Comparator.comparingDouble(PhaseResult::ratePerSecond));
    }

    /** The cores the broadcast source's host used over the capacity window; NaN when the hosts shared the machine's. */
    double sourceHostCores() {
        return sourceHost < hostCores.size() ? hostCores.get(sourceHost) : Double.NaN;
    }

    /** The probes, then the common phase when one ran; none without a search. */
    List<PhaseResult> paced() {
        if (search.isEmpty() || common == null) {
            return search;
        }
        List<PhaseResult> paced = new ArrayList<>(search);
        paced.add(common);
        return paced;
    }
}
