package io.whale.ui.source;

/**
 * A failure the operator can act on, with the HTTP status it is answered with and a message that names what is
 * wrong (Nimbus unreachable, topology not found, a worker endpoint down): shown on the page or in the JSON's
 * {@code error}, never as a stack trace.
 */
public final class UiError extends RuntimeException {
    private final int status;

    public UiError(int status, String message) {
        super(message);
        this.status = status;
    }

    public UiError(int status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
