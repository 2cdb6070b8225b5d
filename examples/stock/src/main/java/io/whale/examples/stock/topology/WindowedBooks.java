package io.whale.examples.stock.topology;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Per-symbol state kept per tumbling event-time window, dropped once the window ended more than the
 * allowed lateness before the newest timestamp seen (the watermark).
 */
final class WindowedBooks<B> {
    private final long windowMillis;
    private final long latenessMillis;
    private final Supplier<B> newBook;
    private final Map<Long, Map<String, B>> windows = new HashMap<>();
    private long maxTs = Long.MIN_VALUE;

    WindowedBooks(long windowMillis, long latenessMillis, Supplier<B> newBook) {
        this.windowMillis = windowMillis;
        this.latenessMillis = latenessMillis;
        this.newBook = newBook;
    }

    B book(long windowStart, String symbol) {
        return windows.computeIfAbsent(windowStart, w -> new HashMap<>()).computeIfAbsent(symbol, s -> newBook.get());
    }

    /** Advances the watermark with {@code ts} and drops the windows it has passed. */
    void advance(long ts) {
        if (ts <= maxTs) {
            return;
        }
        maxTs = ts;
        long watermark = maxTs - latenessMillis;
        for (Iterator<Long> it = windows.keySet().iterator(); it.hasNext(); ) {
            if (it.next() + windowMillis <= watermark) {
                it.remove();
            }
        }
    }

    int windowCount() {
        return windows.size();
    }
}
