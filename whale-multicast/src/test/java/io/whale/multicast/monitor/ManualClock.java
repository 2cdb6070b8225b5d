package io.whale.multicast.monitor;

/** A clock the test moves by hand. */
final class ManualClock implements NanoClock {
    private long now;

    @Override
    public long nanoTime() {
        return now;
    }

    void advanceMillis(long millis) {
        now += millis * 1_000_000L;
    }
}
