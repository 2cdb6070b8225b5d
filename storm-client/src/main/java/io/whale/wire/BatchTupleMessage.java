package io.whale.wire;

/**
 * A BatchTuple frame on its way to the transport: a TaskMessage to the reserved task {@link #FRAME_TASK_ID}.
 *
 * <p>{@link #FRAME_TASK_ID} is safe: real task ids are positive and the system task is -1; the Netty codec
 * writes the task as a short and treats only -100, -200..-203, -400 (control), -500 (SASL) and -600
 * (backpressure) specially, so -7000 travels as a plain TaskMessage; and only a worker whose topology has
 * {@code whale.woc.enabled} sends it, to a worker of the same topology, which then looks for it.
 */
public final class BatchTupleMessage extends FrameMessage {
    public static final int FRAME_TASK_ID = -7000;

    public BatchTupleMessage(int routingTask, byte[] frame) {
        super(FRAME_TASK_ID, routingTask, frame);
    }
}
