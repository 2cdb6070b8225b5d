package io.whale.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.apache.storm.messaging.TaskMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credit a worker's server returns on the connection a batch of WOC frames came in on, once it has handed
 * them to its executors: a TaskMessage to the reserved task {@link #CREDIT_TASK_ID} whose 4-byte payload is
 * the number of tuples the frames carried (their destination counts, {@link BatchTupleCodec#destinationCount}). Like {@link BatchTupleMessage#FRAME_TASK_ID} it passes Storm's Netty codec as a plain
 * TaskMessage; the sending worker's client takes it out of what the server sent before Storm's load-metrics
 * handling sees it, and credits the connection's frame window.
 */
public final class FrameCredit {
    private static final Logger LOG = LoggerFactory.getLogger(FrameCredit.class);
    public static final int CREDIT_TASK_ID = -7010;

    private FrameCredit() {
    }

    /** The tuples the WOC frames of a received batch carry: what the server owes the sender once it dispatched them. */
    public static int owed(List<TaskMessage> received) {
        int tuples = 0;
        for (TaskMessage message : received) {
            if (message.task() == BatchTupleMessage.FRAME_TASK_ID) {
                tuples += BatchTupleCodec.destinationCount(message.message());
            }
        }
        return tuples;
    }

    /** The credit for frames carrying {@code tuples} tuples. */
    public static TaskMessage message(int tuples) {
        return new TaskMessage(CREDIT_TASK_ID, ByteBuffer.allocate(Integer.BYTES).putInt(tuples).array());
    }

    /**
     * Hands the tuples of each credit message among {@code fromServer} to {@code window} (a frame window's credit)
     * and returns the other messages (Storm's load metrics) in order, or null if there were only credits. A malformed
     * credit is logged and ignored: it can only leave the window smaller, never let more frames out.
     */
    public static List<TaskMessage> takeCredits(List<TaskMessage> fromServer, IntConsumer window) {
        return take(fromServer, CREDIT_TASK_ID, payload -> {
            int tuples = payload.length == Integer.BYTES ? ByteBuffer.wrap(payload).getInt() : -1;
            if (tuples > 0) {
                window.accept(tuples);
            } else {
                LOG.warn("Ignored a malformed WOC frame credit ({} bytes)", payload.length);
            }
        });
    }

    /**
     * Hands the payload of every message to {@code task} among {@code fromServer} (null: none) to {@code onMessage}
     * and returns the other messages in order, or null if there were no others.
     */
    public static List<TaskMessage> take(List<TaskMessage> fromServer, int task, Consumer<byte[]> onMessage) {
        if (fromServer == null) {
            return null;
        }
        List<TaskMessage> rest = null;
        for (int i = 0; i < fromServer.size(); i++) {
            TaskMessage message = fromServer.get(i);
            if (message.task() != task) {
                if (rest != null) {
                    rest.add(message);
                }
                continue;
            }
            if (rest == null) {
                rest = new ArrayList<>(fromServer.subList(0, i));
            }
            onMessage.accept(message.message());
        }
        if (rest == null) {
            return fromServer;
        }
        return rest.isEmpty() ? null : rest;
    }
}
