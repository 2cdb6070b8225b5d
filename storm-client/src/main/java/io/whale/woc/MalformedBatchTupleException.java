package io.whale.woc;

/** A received BatchTuple frame is truncated, oversized, garbled or names tasks this worker does not host. */
public final class MalformedBatchTupleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedBatchTupleException(String message) {
        super(message);
    }

    public MalformedBatchTupleException(String message, Throwable cause) {
        super(message, cause);
    }
}
