package io.whale.rdma.spi;

/** Outcome of a posted operation; runs on the engine's progress thread. */
public interface Completion {
    void onSuccess();

    void onError(String reason);

    Completion IGNORE = new Completion() {
        @Override
        public void onSuccess() {
        }

        @Override
        public void onError(String reason) {
        }
    };
}
