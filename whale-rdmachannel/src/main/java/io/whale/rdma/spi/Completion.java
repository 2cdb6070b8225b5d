package io.whale.rdma.spi;

import java.util.function.Consumer;

/** Outcome of a posted operation; runs on the engine's progress thread. */
public interface Completion {
    void onSuccess();

    void onError(String reason);

    Completion IGNORE = onFailure(reason -> {
    });

    /** A completion that only acts when the operation failed, on the reason. */
    static Completion onFailure(Consumer<String> failed) {
        return new Completion() {
            @Override
            public void onSuccess() {
            }

            @Override
            public void onError(String reason) {
                failed.accept(reason);
            }
        };
    }
}
