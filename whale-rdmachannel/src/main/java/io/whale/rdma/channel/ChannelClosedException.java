package io.whale.rdma.channel;

import io.whale.rdma.RdmaException;

/** The channel was closed or gave up; the message says why (including the last connection error). */
public final class ChannelClosedException extends RdmaException {
    private static final long serialVersionUID = 1L;

    public ChannelClosedException(String message) {
        super(message);
    }
}
