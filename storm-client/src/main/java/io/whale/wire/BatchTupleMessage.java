package io.whale.wire;

import org.apache.storm.messaging.TaskMessage;

/**
 * A BatchTuple frame on its way to the transport. On the wire it is an ordinary TaskMessage whose task is
 * {@link #FRAME_TASK_ID}; inside the sending worker it also remembers one real destination task, which the
 * transfer drainer uses to find the destination worker.
 *
 * <p>{@link #FRAME_TASK_ID} is safe: real task ids are positive and the system task is -1; the Netty codec
 * writes the task as a short and treats only -100, -200..-203, -400 (control), -500 (SASL) and -600
 * (backpressure) specially, so -7000 travels as a plain TaskMessage; and only a worker whose topology has
 * {@code whale.woc.enabled} sends it, to a worker of the same topology, which then looks for it.
 */
public class BatchTupleMessage extends TaskMessage {
    public static final int FRAME_TASK_ID = -7000;

    private final int routingTask;

    public BatchTupleMessage(int routingTask, byte[] frame) {
        this(FRAME_TASK_ID, routingTask, frame);
    }

    /** A frame of another kind ({@code wireTask}), routed the same way: relay frames. */
    protected BatchTupleMessage(int wireTask, int routingTask, byte[] frame) {
        super(wireTask, frame);
        this.routingTask = routingTask;
    }

    /** A destination task of the frame: it lives on the worker the frame goes to. */
    public int routingTask() {
        return routingTask;
    }
}
