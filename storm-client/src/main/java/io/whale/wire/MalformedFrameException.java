package io.whale.wire;

/** A received BatchTuple frame is truncated, oversized, garbled or names tasks this worker does not host. */
public final class MalformedFrameException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedFrameException(String message) {
        super(message);
    }

    public MalformedFrameException(String message, Throwable cause) {
        super(message, cause);
    }
}
