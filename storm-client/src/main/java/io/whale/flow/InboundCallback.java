package io.whale.flow;

import java.util.List;
import java.util.function.Consumer;
import org.apache.storm.messaging.IConnectionCallback;
import org.apache.storm.messaging.TaskMessage;

/**
 * A worker's receive callback that takes, with each batch, the connection it came in on ({@link RelayInbound}), so that
 * the relay credit a member owes for the batch's frames goes back on it. Storm's {@code recv(batch)}, which a transport
 * without credit calls, is {@code recv(batch, RelayInbound.NONE)}.
 */
public interface InboundCallback extends IConnectionCallback {
    void recv(List<TaskMessage> batch, Consumer<TaskMessage> inbound);

    @Override
    default void recv(List<TaskMessage> batch) {
        recv(batch, RelayInbound.NONE);
    }

    /** Hands {@code batch} to {@code callback}, with its inbound connection if the callback takes one. */
    static void deliver(IConnectionCallback callback, List<TaskMessage> batch, Consumer<TaskMessage> inbound) {
        if (callback instanceof InboundCallback withInbound) {
            withInbound.recv(batch, inbound);
        } else {
            callback.recv(batch);
        }
    }
}
