package io.whale.multicast.sim;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.whale.multicast.MulticastTree;
import io.whale.multicast.export.LiveStatistics;

import java.util.List;

/**
 * What a simulated run measured. Latencies are multicast latencies: from the tuple's arrival at the source to
 * the moment the last destination holds it, in microseconds; only fully delivered tuples count.
 *
 * @param delivered       tuples the source started on that reached every destination (some after the run's end)
 * @param droppedAtSource tuples refused because the source's transfer queue held Q tuples
 * @param partial         accepted tuples that missed some destination because a relay's queue was full
 * @param leftInQueue     tuples still waiting at the source when arrivals stopped
 * @param throughput      tuples per second that reached every destination before the run's end
 * @param finalTree       the tree at the end of the run (not serialized; see TreeExport)
 * @param finalStatistics the monitors' and the model's view at the end of the run
 * @param series          per-bucket input rate, throughput (tuples fully delivered per second, by completion
 *                        time), mean latency (by arrival time; null for an empty bucket) and d* at bucket end
 * @param queue           the source's queue length and d* at every monitor sample
 */
public record SimulationResult(String structure, int destinations, long emitNanos, int queueCapacity,
                               long arrived, long delivered, long droppedAtSource, long partial, long leftInQueue,
                               double throughput, double meanLatencyMicros, double p50LatencyMicros,
                               double p99LatencyMicros, double maxLatencyMicros, int finalMaxOutDegree,
                               @JsonIgnore MulticastTree finalTree, LiveStatistics finalStatistics,
                               Series series, QueueTrace queue, List<SwitchRecord> switches) {

    public record Series(double bucketSeconds, double[] startSeconds, double[] inputRate, double[] throughput,
                         Double[] meanLatencyMicros, int[] maxOutDegree) {
    }

    public record QueueTrace(double[] seconds, int[] length, int[] maxOutDegree) {
    }
}
