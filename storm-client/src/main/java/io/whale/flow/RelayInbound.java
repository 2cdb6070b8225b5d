package io.whale.flow;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.storm.messaging.TaskMessage;

/**
 * The connection a batch being received came in on, as the place its relay credit goes back to. The patched Netty
 * server and the RDMA transport's server open it around handing a batch to the worker and close it after: credit a
 * member owes for the batch's frames while it is open is held back and written when it closes, so it leaves only once
 * the batch's tuples are in the executors' queues; credit owed later (when a child credits) is written at once. Not
 * opened (the local transport, which returns no credit): credit is dropped.
 */
public final class RelayInbound implements Consumer<TaskMessage> {
    private static final Consumer<TaskMessage> NO_CREDIT = message -> { };
    private static final ThreadLocal<RelayInbound> CURRENT = new ThreadLocal<>();

    private final Consumer<TaskMessage> connection;
    private List<TaskMessage> heldBack = new ArrayList<>();

    private RelayInbound(Consumer<TaskMessage> connection) {
        this.connection = connection;
    }

    /** Opens the batch of this thread, whose credit goes to {@code connection}. */
    public static void enter(Consumer<TaskMessage> connection) {
        CURRENT.set(new RelayInbound(connection));
    }

    /** Closes this thread's batch and writes the credit held back for it. */
    public static void exit() {
        RelayInbound inbound = CURRENT.get();
        CURRENT.remove();
        if (inbound != null) {
            inbound.flush();
        }
    }

    /** Where credit for the batch this thread is handing to the worker goes (nowhere if none was opened). */
    public static Consumer<TaskMessage> current() {
        RelayInbound inbound = CURRENT.get();
        return inbound == null ? NO_CREDIT : inbound;
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

    private void flush() {
        List<TaskMessage> held;
        synchronized (this) {
            held = heldBack;
            heldBack = null;
        }
        held.forEach(connection);
    }
}
