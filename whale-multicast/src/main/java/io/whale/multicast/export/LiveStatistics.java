package io.whale.multicast.export;

import io.whale.multicast.MD1Queue;
import io.whale.multicast.OutDegreeBound;
import io.whale.multicast.monitor.QueueMonitor;
import io.whale.multicast.monitor.StreamMonitor;

/**
 * What the monitors and the model say about a live source, next to its tree.
 *
 * @param inputRate            λ in tuples per second (NaN before the first interval)
 * @param emitNanosPerReplica  t_e (NaN before the first emit)
 * @param modelMeanQueueLength E(L) for the current source out-degree (Eq. 2), infinite if overloaded
 * @param modelMaxOutDegree    d* for the current λ and t_e (0 while either is unknown)
 * @param maxAffordableRate    M for the current source out-degree (Eq. 5; NaN while t_e is unknown)
 */
public record LiveStatistics(long timestampMillis, int sourceOutDegree, double inputRate,
                             double emitNanosPerReplica, int queueLength, int queueCapacity,
                             double modelMeanQueueLength, int modelMaxOutDegree, double maxAffordableRate,
                             long droppedTuples) {

    public static LiveStatistics of(long timestampMillis, int sourceOutDegree, int destinations, int queueCapacity,
                                    QueueMonitor queue, StreamMonitor stream, long droppedTuples) {
        double lambda = stream.rate();
        double te = queue.emitNanosPerReplica() * 1e-9;
        boolean known = lambda >= 0 && te > 0 && sourceOutDegree > 0;
        double meanQueue = known ? MD1Queue.meanQueueLength(lambda, MD1Queue.serviceRate(sourceOutDegree, te))
                : Double.NaN;
        int dStar = known ? OutDegreeBound.maxOutDegree(lambda, te, queueCapacity, destinations) : 0;
        double m = te > 0 && sourceOutDegree > 0 ? OutDegreeBound.maxAffordableRate(sourceOutDegree, te, queueCapacity)
                : Double.NaN;
        return new LiveStatistics(timestampMillis, sourceOutDegree, lambda, queue.emitNanosPerReplica(),
                queue.currentLength(), queueCapacity, meanQueue, dStar, m, droppedTuples);
    }
}
