package io.whale.examples.stock.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class StockModelTest {
    @Test
    void shouldListExactly6649DistinctFourLetterSymbols() {
        Set<String> symbols = new HashSet<>();
        for (int i = 0; i < SymbolUniverse.SIZE; i++) {
            String s = SymbolUniverse.symbol(i);
            assertTrue(s.matches("[A-Z]{4}"), s);
            assertTrue(SymbolUniverse.isListed(s));
            symbols.add(s);
        }
        assertEquals(6_649, symbols.size());
        assertFalse(SymbolUniverse.isListed("X123"));
    }

    @Test
    void shouldFormatAndParsePricesInExactCents() {
        assertEquals("12.05", Prices.format(1205));
        assertEquals("-0.07", Prices.format(-7));
        assertEquals(1205, Prices.parse("12.05"));
        assertEquals(1200, Prices.parse("12"));
        assertThrows(ArithmeticException.class, () -> Prices.parse("1.005"));
    }

    @Test
    void shouldDealWhenTheBidReachesTheAskAtTheMidPriceForTheSmallerVolume() {
        String symbol = SymbolUniverse.symbol(0);
        StockRecord buy = new StockRecord(1, symbol, 'B', 1001, 300, 5);
        StockRecord sell = new StockRecord(2, symbol, 'S', 998, 200, 7);
        assertEquals(new Deal(1, 2, symbol, 0, 999, 200), Deal.of(buy, sell, 0));
        assertNull(Deal.of(new StockRecord(3, symbol, 'B', 997, 300, 5), sell, 0));
        assertEquals(2_000, Deal.windowStart(2_999, 1_000));
        assertEquals(-1_000, Deal.windowStart(-1, 1_000));
    }

    @Test
    void shouldRejectRecordsThatBreakTheTradingRules() {
        String symbol = SymbolUniverse.symbol(1);
        assertTrue(TradingRules.allows(new StockRecord(0, symbol, 'B', 100, 100, 0)));
        assertFalse(TradingRules.allows(new StockRecord(0, symbol, 'B', 0, 100, 0)));
        assertFalse(TradingRules.allows(new StockRecord(0, symbol, 'S', -5, 100, 0)));
        assertFalse(TradingRules.allows(new StockRecord(0, symbol, 'B', 100, 0, 0)));
        assertFalse(TradingRules.allows(new StockRecord(0, "X42", 'B', 100, 100, 0)));
        assertFalse(TradingRules.allows(new StockRecord(0, symbol, 'Q', 100, 100, 0)));
    }
}
