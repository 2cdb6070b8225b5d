package io.whale.bench;

import java.time.Instant;

/** Wall-clock time in microseconds: comparable between the worker processes of one machine, unlike nanoTime. */
final class EpochMicros {
    private EpochMicros() {
    }

    static long now() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
