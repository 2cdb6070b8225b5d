package io.whale.cluster;

/** A local-cluster failure an operator can act on; its message is printed without a stack trace. */
public class LocalClusterException extends RuntimeException {
    public LocalClusterException(String message) {
        super(message);
    }
}
