package io.whale.examples.stock.gen;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

import io.whale.examples.stock.model.StockRecord;
import io.whale.examples.stock.model.SymbolUniverse;

/**
 * NASDAQ-format order records in time order: symbols drawn with Zipf-skewed popularity over the
 * {@link SymbolUniverse}, arrivals as a Poisson process, each symbol's price a multiplicative random
 * walk from a log-uniform start (5 to 500 dollars), bids scattered a little below it and asks a little
 * above so that about one buy/sell pair in seven crosses, and a configurable share of records that break the trading rules
 * (non-positive price, zero volume, unknown symbol, in equal parts). Same seed, same records.
 */
public final class NasdaqGenerator implements Iterator<StockRecord> {
    /** Kinds of rule-breaking record, produced in equal shares. */
    enum Violation { BAD_PRICE, ZERO_VOLUME, UNKNOWN_SYMBOL }

    private final SplittableRandom random;
    private final ZipfSampler popularity;
    private final double[] walk;
    private final long limit;
    private final double meanGapMillis;
    private final double badShare;
    private double clockMillis;
    private long produced;

    /**
     * @param ratePerSecond mean records per second of event time
     * @param zipfExponent  popularity skew (1.0 is classic Zipf)
     * @param badShare      fraction of records that violate the trading rules
     */
    public NasdaqGenerator(long seed, long records, long startMillis, double ratePerSecond, double zipfExponent, double badShare) {
        if (ratePerSecond <= 0 || badShare < 0 || badShare > 1) {
            throw new IllegalArgumentException("rate must be positive and badShare in [0, 1]");
        }
        this.random = new SplittableRandom(seed);
        this.popularity = new ZipfSampler(SymbolUniverse.SIZE, zipfExponent);
        this.walk = new double[SymbolUniverse.SIZE];
        for (int i = 0; i < walk.length; i++) {
            walk[i] = Math.exp(random.nextDouble(Math.log(5), Math.log(500)));
        }
        this.limit = records;
        this.meanGapMillis = 1000.0 / ratePerSecond;
        this.badShare = badShare;
        this.clockMillis = startMillis;
    }

    @Override
    public boolean hasNext() {
        return produced < limit;
    }

    @Override
    public StockRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        clockMillis += -Math.log(1 - random.nextDouble()) * meanGapMillis;
        int rank = popularity.next(random);
        walk[rank] = Math.max(0.05, walk[rank] * (1 + 0.001 * gaussian()));
        char side = random.nextBoolean() ? StockRecord.BUY : StockRecord.SELL;
        // Bids sit a little below the walk and asks a little above, so only about one pair in seven crosses.
        double offset = side == StockRecord.BUY ? -0.0015 : 0.0015;
        long price = Math.max(1, Math.round(walk[rank] * (1 + offset + 0.002 * gaussian()) * 100));
        long volume = 100L * (1 + Math.min(50, (long) (-Math.log(1 - random.nextDouble()) * 3)));
        String symbol = SymbolUniverse.symbol(rank);
        if (random.nextDouble() < badShare) {
            switch (Violation.values()[random.nextInt(Violation.values().length)]) {
                case BAD_PRICE -> price = random.nextBoolean() ? 0 : -price;
                case ZERO_VOLUME -> volume = 0;
                case UNKNOWN_SYMBOL -> symbol = "X" + random.nextInt(10_000);
            }
        }
        return new StockRecord(produced++, symbol, side, price, volume, (long) clockMillis);
    }

    private double gaussian() {
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
