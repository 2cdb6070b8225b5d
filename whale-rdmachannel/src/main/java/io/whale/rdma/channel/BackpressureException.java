package io.whale.rdma.channel;

import io.whale.rdma.RdmaException;

/** The ring is full of unconsumed data (slow or absent receiver): nothing was written, try again later. */
public final class BackpressureException extends RdmaException {
    private static final long serialVersionUID = 1L;

    public BackpressureException(String message) {
        super(message);
    }
}
