package io.whale.wire;

/**
 * A relay frame on its way to the transport: a TaskMessage to the reserved task {@link #FRAME_TASK_ID}, routed to the
 * worker of its route's first task. -7001 passes Storm's Netty codec as a plain TaskMessage, as -7000 does
 * ({@link BatchTupleMessage}).
 */
public final class RelayFrameMessage extends FrameMessage {
    public static final int FRAME_TASK_ID = -7001;

    public RelayFrameMessage(int routingTask, byte[] frame) {
        super(FRAME_TASK_ID, routingTask, frame);
    }
}
