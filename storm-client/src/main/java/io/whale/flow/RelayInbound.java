package io.whale.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.storm.messaging.TaskMessage;

/**
 * The connection a batch being received came in on, as the place its relay credit goes back to, handed explicitly
 * from the transport's server to the relay member ({@link CreditReturn} → {@link InboundCallback} →
 * {@code WocDispatcher} → {@code RelayMember}). Credit a member owes for the batch's frames while the batch is being
 * handed to the worker is held back and written when {@link CreditReturn} {@link #release releases} it, so it leaves
 * only once the batch's tuples are in the executors' queues; credit owed later (when a child credits) is written at
 * once. A transport that returns no credit (the local one) hands over {@link #NONE}.
 */
public final class RelayInbound implements Consumer<TaskMessage> {
    /** The inbound of a transport that returns no credit: its senders' windows are never bounded, nothing waits for it. */
    public static final Consumer<TaskMessage> NONE = message -> { };

    private final Consumer<TaskMessage> connection;
    private List<TaskMessage> heldBack = new ArrayList<>();

    RelayInbound(Consumer<TaskMessage> connection) {
        this.connection = connection;
    }

    @Override
    public void accept(TaskMessage credit) {
        synchronized (this) {
            if (heldBack != null) {
                heldBack.add(credit);
                return;
            }
        }
        connection.accept(credit);
    }

    /** The batch is in the worker: writes the credit held back for it; credit owed from now on goes out at once. */
    void release() {
        List<TaskMessage> held;
        synchronized (this) {
            held = heldBack;
            heldBack = null;
        }
        held.forEach(connection);
    }
}
