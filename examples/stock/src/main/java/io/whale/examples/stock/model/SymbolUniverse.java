package io.whale.examples.stock.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The 6,649 listed symbols of the NASDAQ trace, as synthetic four-letter tickers: symbol i is
 * (i * 7919 + 12345) mod 26^4 written in base 26 with letters A-Z. 7919 is prime and coprime to
 * 26^4, so the tickers are distinct. Any other string is an unknown symbol.
 */
public final class SymbolUniverse {
    public static final int SIZE = 6_649;
    private static final int SPACE = 26 * 26 * 26 * 26;
    private static final List<String> SYMBOLS;
    private static final Set<String> KNOWN;

    static {
        List<String> symbols = new ArrayList<>(SIZE);
        for (int i = 0; i < SIZE; i++) {
            symbols.add(ticker((int) (((long) i * 7919 + 12345) % SPACE)));
        }
        SYMBOLS = Collections.unmodifiableList(symbols);
        KNOWN = Set.copyOf(new HashSet<>(symbols));
    }

    private SymbolUniverse() {
    }

    /** Symbol by popularity rank (0 = most traded in the generated data). */
    public static String symbol(int rank) {
        return SYMBOLS.get(rank);
    }

    public static boolean isListed(String symbol) {
        return KNOWN.contains(symbol);
    }

    private static String ticker(int code) {
        char[] letters = new char[4];
        for (int i = 3; i >= 0; i--) {
            letters[i] = (char) ('A' + code % 26);
            code /= 26;
        }
        return new String(letters);
    }
}
