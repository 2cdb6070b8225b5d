package io.whale.examples.stock.model;

/**
 * A deal between a buy and a sell order. The matching rule (order-independent, so a parallel matcher
 * and a sequential one find the same deals): a buy and a sell of the same symbol whose timestamps fall
 * into the same tumbling window deal when the bid is at least the ask, at the mid price (rounded down
 * to the cent), for the smaller of the two volumes.
 */
public record Deal(long buyId, long sellId, String symbol, long windowStart, long priceCents, long volume) {
    public static long windowStart(long tsMillis, long windowMillis) {
        return Math.floorDiv(tsMillis, windowMillis) * windowMillis;
    }

    /** The deal of {@code buy} and {@code sell} (same symbol and window assumed), or null when their prices do not cross. */
    public static Deal of(StockRecord buy, StockRecord sell, long windowStart) {
        if (buy.priceCents() < sell.priceCents()) {
            return null;
        }
        return new Deal(buy.orderId(), sell.orderId(), buy.symbol(), windowStart,
                (buy.priceCents() + sell.priceCents()) / 2, Math.min(buy.volume(), sell.volume()));
    }
}
