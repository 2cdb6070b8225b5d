package io.whale.examples.stock.model;

import io.whale.examples.gen.CsvRecord;

/**
 * One NASDAQ-format record: {@code symbol, side (B/S), price, volume, ts} (ts in epoch millis). The
 * record has no id column: its order id is its 0-based position in the stream, which is also its
 * Kafka key.
 */
public record StockRecord(long orderId, String symbol, char side, long priceCents, long volume, long tsMillis)
        implements CsvRecord {
    public static final String HEADER = "symbol,side,price,volume,ts";
    public static final char BUY = 'B';
    public static final char SELL = 'S';

    /** Parses a record; throws {@link IllegalArgumentException} (incl. NumberFormatException) when malformed. */
    public static StockRecord parse(long orderId, String csv) {
        String[] f = csv.split(",", -1);
        if (f.length != 5 || f[1].length() != 1) {
            throw new IllegalArgumentException("malformed stock record: " + csv);
        }
        return new StockRecord(orderId, f[0], f[1].charAt(0), Prices.parse(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]));
    }

    @Override
    public String key() {
        return Long.toString(orderId);
    }

    @Override
    public String toCsv() {
        return symbol + ',' + side + ',' + Prices.format(priceCents) + ',' + volume + ',' + tsMillis;
    }
}
