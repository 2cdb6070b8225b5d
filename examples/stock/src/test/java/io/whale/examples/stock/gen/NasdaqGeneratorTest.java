package io.whale.examples.stock.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.whale.examples.stock.model.StockRecord;
import io.whale.examples.stock.model.SymbolUniverse;
import io.whale.examples.stock.model.TradingRules;
import org.junit.jupiter.api.Test;

class NasdaqGeneratorTest {
    private static final long START = NasdaqGeneratorMain.DEFAULT_START_MILLIS;

    @Test
    void shouldProduceTheSameRecordsForTheSameSeedAndOthersForAnother() {
        List<StockRecord> a = take(3, 5_000, 0.01);
        assertEquals(a, take(3, 5_000, 0.01));
        assertNotEquals(a, take(4, 5_000, 0.01));
    }

    @Test
    void shouldWriteRecordsInTheNasdaqFormatThatParseBack() {
        for (StockRecord r : take(1, 2_000, 0.05)) {
            String[] fields = r.toCsv().split(",");
            assertEquals(5, fields.length);
            assertTrue(fields[1].equals("B") || fields[1].equals("S"));
            assertTrue(fields[2].matches("-?\\d+\\.\\d\\d"), fields[2]);
            assertEquals(r, StockRecord.parse(r.orderId(), r.toCsv()));
            assertEquals(Long.toString(r.orderId()), r.key());
        }
    }

    @Test
    void shouldSkewSymbolPopularityLikeZipf() {
        Map<String, Integer> counts = new HashMap<>();
        List<StockRecord> records = take(5, 100_000, 0);
        records.forEach(r -> counts.merge(r.symbol(), 1, Integer::sum));
        ZipfSampler zipf = new ZipfSampler(SymbolUniverse.SIZE, 1.0);
        double top = counts.get(SymbolUniverse.symbol(0)) / 100_000.0;
        assertEquals(zipf.probability(0), top, 0.01, "share of the most popular symbol");
        double tenth = counts.getOrDefault(SymbolUniverse.symbol(9), 0) / 100_000.0;
        assertEquals(10, top / tenth, 3, "rank 1 is about 10 times as popular as rank 10");
        assertTrue(counts.size() > 3_000, "the tail is long: " + counts.size() + " symbols seen");
    }

    @Test
    void shouldWalkEachSymbolsPriceAndKeepTimeOrder() {
        long previousTs = 0;
        Map<String, Long> lastPrice = new HashMap<>();
        int bigJumps = 0;
        for (StockRecord r : take(6, 50_000, 0)) {
            assertTrue(r.tsMillis() >= previousTs);
            previousTs = r.tsMillis();
            Long before = lastPrice.put(r.symbol(), r.priceCents());
            if (before != null && Math.abs(r.priceCents() - before) > before * 0.05 + 2) {
                bigJumps++;
            }
        }
        assertTrue(bigJumps < 50, "prices move in small steps, jumps: " + bigJumps);
        double seconds = (previousTs - START) / 1000.0;
        assertEquals(25, seconds, 2.5, "50,000 records at 2,000/s");
    }

    @Test
    void shouldBreakTheTradingRulesInTheRequestedShareOfRecordsInEveryWay() {
        List<StockRecord> records = take(7, 100_000, 0.02);
        long rejected = records.stream().filter(r -> !TradingRules.allows(r)).count();
        assertEquals(2_000, rejected, 200);
        assertTrue(records.stream().anyMatch(r -> r.priceCents() <= 0));
        assertTrue(records.stream().anyMatch(r -> r.volume() == 0));
        assertTrue(records.stream().anyMatch(r -> !SymbolUniverse.isListed(r.symbol())));
    }

    private static List<StockRecord> take(long seed, int n, double badShare) {
        List<StockRecord> out = new ArrayList<>();
        new NasdaqGenerator(seed, n, START, 2_000, 1.0, badShare).forEachRemaining(out::add);
        return out;
    }
}
