package io.whale.examples.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The results of one report interval in bins of {@value #BIN_MILLIS} ms from its start: how many arrived in each and
 * their summed latency, so that a reader sees a rate step answered within a second (the reporter's interval is whole
 * seconds, Storm's tick).
 */
final class ResultBins {
    static final int BIN_MILLIS = 100;

    private final List<long[]> bins = new ArrayList<>();
    private long startMillis;

    ResultBins(long startMillis) {
        this.startMillis = startMillis;
    }

    void record(long nowMillis, long latencyMillis) {
        int bin = (int) Math.max(0, (nowMillis - startMillis) / BIN_MILLIS);
        while (bins.size() <= bin) {
            bins.add(new long[2]);
        }
        bins.get(bin)[0]++;
        bins.get(bin)[1] += latencyMillis;
    }

    long startMillis() {
        return startMillis;
    }

    /** Each bin's results, up to the interval's end at {@code endMillis}. */
    List<Long> results(long endMillis) {
        return column(endMillis, 0);
    }

    /** Each bin's summed latency (ms), up to the interval's end at {@code endMillis}. */
    List<Long> latencySums(long endMillis) {
        return column(endMillis, 1);
    }

    /** Starts the next interval at {@code startMillis}. */
    void reset(long startMillis) {
        bins.clear();
        this.startMillis = startMillis;
    }

    private List<Long> column(long endMillis, int column) {
        int count = (int) Math.max(bins.size(), (endMillis - startMillis + BIN_MILLIS - 1) / BIN_MILLIS);
        List<Long> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(i < bins.size() ? bins.get(i)[column] : 0L);
        }
        return values;
    }
}
