package io.whale.examples.report;

import java.util.function.BiConsumer;

import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * How far a bolt has come through the source's records, for topologies whose results are not one per record (the
 * stock application's deals): each task counts the records it finished and, on each tick, sends its running counts on
 * stream {@value #ID} to the {@link ThroughputLatencyReporter}, which adds them up into {@code total_records}. Without
 * ackers that is the only count of what the topology got through; the counts are cumulative, so nothing is lost when a
 * tick finds nothing new and sends nothing.
 */
public final class ProgressStream {
    public static final String ID = "progress";
    static final Fields FIELDS = new Fields("partitioned", "broadcast");

    private long partitioned;
    private long broadcast;
    private long sentPartitioned;
    private long sentBroadcast;

    /** A record this task alone finished (its component's tasks share the records between them). */
    public void countPartitioned() {
        partitioned++;
    }

    /** A record every task of this component receives and finished here (a broadcast copy). */
    public void countBroadcast() {
        broadcast++;
    }

    /** Sends the running counts on stream {@value #ID} through {@code emit} if they moved since the last send. */
    public void send(BiConsumer<String, Values> emit) {
        if (partitioned != sentPartitioned || broadcast != sentBroadcast) {
            emit.accept(ID, new Values(partitioned, broadcast));
            sentPartitioned = partitioned;
            sentBroadcast = broadcast;
        }
    }

    public static void declare(OutputFieldsDeclarer declarer) {
        declarer.declareStream(ID, FIELDS);
    }

    static boolean carries(Tuple tuple) {
        return ID.equals(tuple.getSourceStreamId());
    }
}
