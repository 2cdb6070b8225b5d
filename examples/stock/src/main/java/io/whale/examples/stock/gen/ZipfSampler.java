package io.whale.examples.stock.gen;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s, by binary search in the cumulative distribution. */
final class ZipfSampler {
    private final double[] cumulative;

    ZipfSampler(int n, double exponent) {
        cumulative = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1 / Math.pow(k + 1, exponent);
            cumulative[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cumulative[k] /= sum;
        }
    }

    int next(SplittableRandom random) {
        int i = Arrays.binarySearch(cumulative, random.nextDouble());
        return Math.min(cumulative.length - 1, i >= 0 ? i : -i - 1);
    }

    double probability(int rank) {
        return cumulative[rank] - (rank == 0 ? 0 : cumulative[rank - 1]);
    }
}
