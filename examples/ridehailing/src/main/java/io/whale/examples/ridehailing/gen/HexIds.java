package io.whale.examples.ridehailing.gen;

import java.util.SplittableRandom;

/** 32-hex-digit ids like the (hashed) driver and order ids of the Didi GAIA data. */
final class HexIds {
    private HexIds() {
    }

    static String next(SplittableRandom random) {
        return String.format("%016x%016x", random.nextLong(), random.nextLong());
    }
}
