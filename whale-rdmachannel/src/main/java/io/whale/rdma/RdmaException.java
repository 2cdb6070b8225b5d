package io.whale.rdma;

/** A failure of the RDMA layer that the caller can report: missing native library, lost peer, refused handshake. */
public class RdmaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RdmaException(String message) {
        super(message);
    }

    public RdmaException(String message, Throwable cause) {
        super(message, cause);
    }
}
