package io.whale.multicast.monitor;

/** A monotonic nanosecond clock; tests and the simulator inject their own. */
@FunctionalInterface
public interface NanoClock {
    long nanoTime();

    static NanoClock system() {
        return System::nanoTime;
    }
}
