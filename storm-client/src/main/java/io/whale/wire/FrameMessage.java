package io.whale.wire;

import org.apache.storm.messaging.TaskMessage;

/**
 * A frame on its way to the transport, a BatchTuple frame ({@link BatchTupleMessage}) or a relay frame
 * ({@link RelayFrameMessage}). On the wire it is an ordinary TaskMessage to its kind's reserved task; inside the
 * sending worker it also remembers one real destination task, which the transfer drainer uses to find the
 * destination worker.
 */
public abstract sealed class FrameMessage extends TaskMessage permits BatchTupleMessage, RelayFrameMessage {
    private final int routingTask;

    FrameMessage(int wireTask, int routingTask, byte[] frame) {
        super(wireTask, frame);
        this.routingTask = routingTask;
    }

    /** A destination task of the frame: it lives on the worker the frame goes to. */
    public int routingTask() {
        return routingTask;
    }
}
