package io.whale.examples.stock.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.whale.examples.stock.model.Deal;
import io.whale.examples.stock.model.StockRecord;
import io.whale.examples.stock.model.TradingRules;

/** The single-threaded oracle: filter by the trading rules, then pair every buy with every sell of its symbol and window. */
final class ReferenceExchange {
    final Set<Deal> deals = new HashSet<>();
    /** Trading volume per "symbol@windowStart". */
    final Map<String, Long> volumes = new HashMap<>();

    ReferenceExchange(List<StockRecord> records, long windowMillis) {
        Map<String, List<StockRecord>> buys = new HashMap<>();
        Map<String, List<StockRecord>> sells = new HashMap<>();
        for (StockRecord r : records) {
            if (TradingRules.allows(r)) {
                String book = r.symbol() + "@" + Deal.windowStart(r.tsMillis(), windowMillis);
                (r.side() == StockRecord.BUY ? buys : sells).computeIfAbsent(book, b -> new ArrayList<>()).add(r);
            }
        }
        buys.forEach((book, bookBuys) -> {
            for (StockRecord buy : bookBuys) {
                for (StockRecord sell : sells.getOrDefault(book, List.of())) {
                    Deal deal = Deal.of(buy, sell, Deal.windowStart(buy.tsMillis(), windowMillis));
                    if (deal != null) {
                        deals.add(deal);
                        volumes.merge(book, deal.volume(), Long::sum);
                    }
                }
            }
        });
    }
}
