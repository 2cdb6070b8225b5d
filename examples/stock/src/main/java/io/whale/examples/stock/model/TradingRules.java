package io.whale.examples.stock.model;

/** What the split operator lets through: a listed symbol, side B or S, a positive price and a positive volume. */
public final class TradingRules {
    private TradingRules() {
    }

    public static boolean allows(StockRecord r) {
        return SymbolUniverse.isListed(r.symbol())
                && (r.side() == StockRecord.BUY || r.side() == StockRecord.SELL)
                && r.priceCents() > 0
                && r.volume() > 0;
    }
}
