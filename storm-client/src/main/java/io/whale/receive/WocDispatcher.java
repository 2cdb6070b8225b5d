package io.whale.receive;

import com.esotericsoftware.kryo.io.Input;
import io.whale.ack.AckCombiner;
import io.whale.relay.RelayMember;
import io.whale.wire.BatchTuple;
import io.whale.wire.BatchTupleCodec;
import io.whale.wire.BatchTupleMessage;
import io.whale.wire.EdgeSeeds;
import io.whale.wire.MalformedFrameException;
import io.whale.wire.RelayFrame;
import io.whale.wire.RelayFrameCodec;
import io.whale.wire.RelayFrameMessage;
import io.whale.woc.WocMetrics;
import io.whale.woc.WocWorker;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.storm.messaging.TaskMessage;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.task.GeneralTopologyContext;
import org.apache.storm.tuple.AddressedTuple;
import org.apache.storm.tuple.MessageId;
import org.apache.storm.tuple.TupleImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WOC receive path: the connection callback offers it every TaskMessage; it takes the BatchTuple frames,
 * decodes each once, deserializes its values once and adds one AddressedTuple per destination task to the
 * batch the callback hands to the executors (each with its own TupleImpl and message id, all sharing the
 * values list, as stock Storm's local delivery does). A malformed frame is counted, logged at most once per
 * {@link #LOG_INTERVAL_NANOS} and dropped; the other messages of the batch are delivered. A well-formed frame
 * naming a destination task that is not (or no longer) on this worker, as happens around a rebalance, is
 * stale, not malformed: its copies for the tasks that are here are delivered, the others dropped and counted
 * ({@code woc-frames-stale}, {@code woc-stale-destinations}), with the same throttled warning. A relay frame is checked
 * the same way before its member forwards it (issue 34: a malformed frame must not spread to the member's subtree), and
 * one that decoded but fails a check is credited to its sender at once ({@link RelayMember#refused}).
 */
public final class WocDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(WocDispatcher.class);
    static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** What the callback uses when WOC is off: takes nothing. */
    public static final WocDispatcher DISABLED = new WocDispatcher(null, null, null, Set.of(), null, AckCombiner.OFF);

    private final WocMetrics metrics;
    private final Map<String, Object> conf;
    private final GeneralTopologyContext context;
    private final Set<Integer> localTasks;
    private final RelayMember relay;
    private final AckCombiner acks;
    private final ThreadLocal<ValuesReader> readers;
    private final ThrottledWarning malformedWarning = new ThrottledWarning(LOG_INTERVAL_NANOS, System.nanoTime());
    private final ThrottledWarning staleWarning = new ThrottledWarning(LOG_INTERVAL_NANOS, System.nanoTime());

    WocDispatcher(WocMetrics metrics, Map<String, Object> conf, GeneralTopologyContext context, Set<Integer> localTasks,
                  RelayMember relay, AckCombiner acks) {
        this.metrics = metrics;
        this.relay = relay;
        this.acks = acks;
        this.conf = conf;
        this.context = context;
        this.localTasks = localTasks;
        this.readers = ThreadLocal.withInitial(() -> new ValuesReader(new KryoValuesDeserializer(this.conf)));
    }

    /** The dispatcher of one worker, {@link #DISABLED} unless WOC is on. */
    public static WocDispatcher create(WocWorker worker, Map<String, Object> conf, GeneralTopologyContext context,
                                       List<Integer> localTasks) {
        if (worker == null || !worker.isEnabled()) {
            return DISABLED;
        }
        return new WocDispatcher(worker.metrics(), conf, context, new HashSet<>(localTasks), worker.relay(), worker.acks());
    }

    /**
     * Dispatches {@code message} if it is a BatchTuple frame; a relay frame's credit goes to {@code inbound}, the
     * connection it came in on ({@link io.whale.flow.RelayInbound}).
     *
     * @return false if it is not one (the caller handles it the stock way), true if it was taken
     */
    public boolean dispatch(TaskMessage message, List<AddressedTuple> out, Consumer<TaskMessage> inbound) {
        if (metrics == null) {
            return false;
        }
        if (message.task() == RelayFrameMessage.FRAME_TASK_ID && relay != null) {
            RelayFrame frame;
            try {
                frame = RelayFrameCodec.decode(message.message());
            } catch (MalformedFrameException e) {
                rejected(e);
                return true;
            }
            try {
                Checked checked = check(frame.sourceTask(), frame.stream(), frame.tasks(), frame.frame(), frame.valuesOffset(),
                    frame.valuesLength());
                requireTopologyTasks(frame.routeTasks());
                if (relay.receive(frame, inbound)) {
                    deliver(checked, frame.sourceTask(), frame.stream(), frame.tasks(), frame.seeds(), out);
                }
            } catch (MalformedFrameException e) {
                relay.refused(frame, inbound);
                rejected(e);
            }
            return true;
        }
        if (message.task() != BatchTupleMessage.FRAME_TASK_ID) {
            return false;
        }
        try {
            BatchTuple frame = BatchTupleCodec.decode(message.message());
            Checked checked = check(frame.sourceTask(), frame.stream(), frame.destTasks(), frame.frame(), frame.valuesOffset(),
                frame.valuesLength());
            deliver(checked, frame.sourceTask(), frame.stream(), frame.destTasks(), frame.seeds(), out);
        } catch (MalformedFrameException e) {
            rejected(e);
        }
        return true;
    }

    /** A frame's source component, its values deserialized once, and how many of its destinations are not here. */
    private record Checked(String sourceComponent, List<Object> values, int stale) {
    }

    /**
     * Checks a frame against the topology before anything is done with it (a relay frame is forwarded only after): its
     * source task, its stream, its values and their count, and that every destination is one of the topology's tasks.
     */
    private Checked check(int sourceTask, String stream, int[] dests, byte[] frame, int valuesOffset, int valuesLength) {
        String sourceComponent = sourceComponent(sourceTask);
        int stale = staleDestinations(dests);
        List<Object> values = readers.get().read(frame, valuesOffset, valuesLength);
        requireFieldCount(sourceComponent, stream, values.size());
        return new Checked(sourceComponent, values, stale);
    }

    /**
     * One tuple per destination task here, sharing the values deserialized once, each with the message id its seeds
     * give it; the stale ones counted. The worker's ack combining counts the anchored ones, which its tasks will ack:
     * every copy has the same roots, so once per root for the frame.
     */
    private void deliver(Checked checked, int sourceTask, String stream, int[] dests, EdgeSeeds seeds, List<AddressedTuple> out) {
        int first = out.size();
        String sourceComponent = checked.sourceComponent();
        List<Object> values = checked.values();
        int stale = checked.stale();
        for (int i = 0; i < dests.length; i++) {
            if (stale > 0 && !localTasks.contains(dests[i])) {
                continue;
            }
            MessageId id = seeds != null ? MessageId.makeId(seeds.idsOf(dests[i])) : MessageId.makeUnanchored();
            out.add(new AddressedTuple(dests[i], new TupleImpl(context, values, sourceComponent, sourceTask, stream, id)));
        }
        if (seeds != null) {
            acks.expect(seeds.roots(), out.size() - first);
        }
        metrics.frameReceived();
        if (stale > 0) {
            staleFrame(sourceTask, dests, stale);
        }
    }

    private String sourceComponent(int sourceTask) {
        String component = context.getComponentId(sourceTask);
        if (component == null) {
            throw new MalformedFrameException("BatchTuple source task " + sourceTask + " is not in this topology");
        }
        return component;
    }

    /** How many of the frame's destination tasks are not on this worker; each must still be in the topology. */
    private int staleDestinations(int[] dests) {
        int stale = 0;
        for (int dest : dests) {
            if (!localTasks.contains(dest)) {
                if (context.getComponentId(dest) == null) {
                    throw new MalformedFrameException("BatchTuple destination task " + dest + " is not in this topology");
                }
                stale++;
            }
        }
        return stale;
    }

    /** The tasks of the members below this one in a relay route: each must be a task of the topology. */
    private void requireTopologyTasks(int[] tasks) {
        for (int task : tasks) {
            if (context.getComponentId(task) == null) {
                throw new MalformedFrameException("Relay frame route names task " + task + ", which is not in this topology");
            }
        }
    }

    private void requireFieldCount(String component, String stream, int valueCount) {
        int fieldCount;
        try {
            fieldCount = context.getComponentOutputFields(component, stream).size();
        } catch (IllegalArgumentException e) {
            throw new MalformedFrameException("BatchTuple stream " + component + ":" + stream + " is not declared", e);
        }
        if (fieldCount != valueCount) {
            throw new MalformedFrameException("BatchTuple on " + component + ":" + stream + " has " + valueCount
                                                   + " values for " + fieldCount + " fields");
        }
    }

    private void rejected(MalformedFrameException e) {
        metrics.frameMalformed();
        long unlogged = malformedWarning.occurred(System.nanoTime());
        if (unlogged != ThrottledWarning.SUPPRESS) {
            LOG.warn("Dropped a malformed WOC BatchTuple frame ({} more dropped since the last report): {}", unlogged,
                     e.getMessage());
        }
    }

    private void staleFrame(int sourceTask, int[] dests, int stale) {
        metrics.frameStale(stale);
        long unlogged = staleWarning.occurred(System.nanoTime());
        if (unlogged != ThrottledWarning.SUPPRESS) {
            LOG.warn("A WOC frame from task {} named {} destination task(s) not on this worker (a rebalance?): those "
                     + "copies were dropped, the local ones delivered ({} more such frames since the last report); "
                     + "local tasks {}, frame destinations {}", sourceTask, stale, unlogged, localTasks,
                     Arrays.toString(dests));
        }
    }

    /** One per receiving thread, like stock Storm's KryoTupleDeserializer. */
    private static final class ValuesReader {
        private final KryoValuesDeserializer kryo;
        private final Input input = new Input(1);

        ValuesReader(KryoValuesDeserializer kryo) {
            this.kryo = kryo;
        }

        List<Object> read(byte[] frame, int valuesOffset, int valuesLength) {
            input.setBuffer(frame, valuesOffset, valuesLength);
            try {
                List<Object> values = kryo.deserializeFrom(input);
                if (input.position() != valuesOffset + valuesLength) {
                    throw new MalformedFrameException("BatchTuple values end before the frame does");
                }
                return values;
            } catch (RuntimeException e) {
                if (e instanceof MalformedFrameException m) {
                    throw m;
                }
                throw new MalformedFrameException("BatchTuple values do not deserialize: " + e, e);
            }
        }
    }
}
