package io.whale.examples.stock.model;

import java.math.BigDecimal;

/** Prices are whole cents internally (exact arithmetic) and dollars with two decimals in records. */
public final class Prices {
    private Prices() {
    }

    public static String format(long cents) {
        long abs = Math.abs(cents);
        return (cents < 0 ? "-" : "") + abs / 100 + "." + (abs % 100 < 10 ? "0" : "") + abs % 100;
    }

    /** Parses a decimal dollar amount with at most two decimals; throws {@link NumberFormatException} otherwise. */
    public static long parse(String dollars) {
        return new BigDecimal(dollars).movePointRight(2).longValueExact();
    }
}
