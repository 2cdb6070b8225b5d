package io.whale.bench.paper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.whale.bench.WorkerCounterLog;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.utils.Utils;

/**
 * The multicast latency of Figs. 21–22, from the sources' side: Whale's workers count the sampled multicast emits whose
 * frames all came back credited ({@value #DELIVERED}) and the microseconds that took ({@value #MICROS}, from the emit
 * until its last destination worker's credit, the paper's "until all the destination instances receive it" plus the
 * credit's way back). Storm's console metrics reporter, added to the topology's reporters, prints the two counters every
 * report period ({@link #reportSeconds}) into each worker's worker.log (with the frame windows' gauges, {@code woc-window-tuples-to-*},
 * {@code woc-window-rtt-us-to-*} and {@code woc-window-in-flight-to-*}, and the transport's counters of {@link #EXPRESSION},
 * for a reader of a run's windows); the mean over a window is what they grew by over all the topology's workers between
 * the last report at or before its start (a worker without one: its first report in the window) and the last at or
 * before its end.
 */
final class MulticastCounters {
    static final String DELIVERED = "woc-multicasts-delivered";
    static final String MICROS = "woc-multicast-us";
    /**
     * The two counters and, for a reader of a run that stopped delivering, each worker's frame windows, the WOC frames it
     * sent beyond or dropped for a stalled window, the relay tuples it lost ({@link WorkerLosses}) and the repeats it
     * dropped, and the messages its RDMA transport sent, received and dropped: which worker, if any, stopped sending or
     * receiving; and the bytes of the WOC frames it sent to each worker, the broadcast's share of what a host sends (the
     * rest is answers, acks and control); and the source's tree switches and waterline crossings, which a rate step's
     * response is read from ({@link io.whale.bench.ScheduleEvent}).
     */
    static final String EXPRESSION = ".*[.]__system[.]-1[.][0-9]+-(woc-(multicast|window-tuples|window-rtt|window-in-flight|frames-dropped-stalled"
        + "|tuples-dropped-stalled|tuples-sent-stalled|bytes-sent-to)|rdma-messages-(sent|received|dropped)|relay-(switches"
        + "|last-switch|above-waterline|last-above-waterline-at|last-under-waterline-at|tuples-lost|tuples-resent|tuples-sent-stalled|duplicates-dropped)).*";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<List<Sample>> workers;

    /** One report of a worker: when (epoch ms) and the two counters then. */
    record Sample(long epochMillis, long delivered, long micros) {
    }

    MulticastCounters(List<List<Sample>> workers) {
        this.workers = workers;
    }

    /**
     * The console reporter's period: with paced phases of {@code measureSeconds}, four reports a phase at least and a
     * period of 5 s at most; in a rate-step run ({@code steps}) every second, since a step's response is timed by the
     * tree's first switch and waterline crossing after it, of which a report holds only its period's last. A report is
     * not free on a measured host: every second, it took 13.9 % of the source worker's CPU samples in a run of 16
     * matchers per worker on a fifth of a core, in Whale's runs only (publish-wait-2026-12-01, where
     * reporter-profile-r1.txt splits it: Storm's regex filter, the registry's copy, formatting and printing through the
     * worker's log). A window's edges then move by up to a period, and a second switch in one period is left untimed.
     */
    static int reportSeconds(int measureSeconds, boolean steps) {
        return steps ? 1 : Math.max(1, Math.min(5, measureSeconds / 4));
    }

    /**
     * The {@code -c} setting that adds the console reporter of the two counters, every {@code periodSeconds}, to the
     * reporters the cluster's conf gives every topology (the Prometheus endpoints of {@code whale local-cluster up}),
     * which a topology's own list would otherwise replace.
     */
    static String reportersSetting(Path clusterConf, int periodSeconds) throws JsonProcessingException {
        Object configured = Utils.findAndReadConfigFile(clusterConf.toString(), true).get(Config.TOPOLOGY_METRICS_REPORTERS);
        List<Object> reporters = configured instanceof List<?> list ? new ArrayList<>(list) : new ArrayList<>();
        reporters.add(Map.of("class", "org.apache.storm.metrics2.reporters.ConsoleStormReporter",
            "report.period", periodSeconds, "report.period.units", "SECONDS",
            "filter", Map.of("class", "org.apache.storm.metrics2.filters.RegexFilter",
                "expression", EXPRESSION)));
        return Config.TOPOLOGY_METRICS_REPORTERS + "=" + JSON.writeValueAsString(reporters);
    }

    /** The two counters in each worker's reports ({@link SourceHost#workerReports}). */
    static MulticastCounters of(List<List<WorkerCounterLog.Report>> reports) {
        List<List<Sample>> workers = new ArrayList<>();
        for (List<WorkerCounterLog.Report> worker : reports) {
            List<Sample> samples = new ArrayList<>();
            for (WorkerCounterLog.Report report : worker) {
                Long delivered = report.counters().get(DELIVERED);
                Long micros = report.counters().get(MICROS);
                if (delivered != null && micros != null) {
                    samples.add(new Sample(report.time().atZone(ZoneId.systemDefault()).toInstant().toEpochMilli(), delivered, micros));
                }
            }
            workers.add(samples);
        }
        return new MulticastCounters(workers);
    }

    /** The mean multicast latency (ms) over the window; NaN when no multicast was timed in it (Storm, or no report). */
    double meanMillis(long fromMillis, long toMillis) {
        long delivered = 0;
        long micros = 0;
        for (List<Sample> samples : workers) {
            Sample start = lastAtOrBefore(samples, fromMillis);
            if (start == null) {
                start = samples.stream().filter(s -> s.epochMillis() > fromMillis).findFirst().orElse(null);
            }
            Sample end = lastAtOrBefore(samples, toMillis);
            if (start != null && end != null && end.epochMillis() >= start.epochMillis()) {
                delivered += end.delivered() - start.delivered();
                micros += end.micros() - start.micros();
            }
        }
        return delivered == 0 ? Double.NaN : micros / 1e3 / delivered;
    }

    private static Sample lastAtOrBefore(List<Sample> samples, long millis) {
        Sample last = null;
        for (Sample s : samples) {
            if (s.epochMillis() <= millis) {
                last = s;
            }
        }
        return last;
    }
}
