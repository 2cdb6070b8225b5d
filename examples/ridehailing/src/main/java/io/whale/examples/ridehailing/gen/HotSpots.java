package io.whale.examples.ridehailing.gen;

import java.util.SplittableRandom;

import io.whale.examples.ridehailing.model.ChengduArea;
import io.whale.examples.ridehailing.model.Geo;

/**
 * Where trips start and end: a weighted mixture of Gaussian hot spots (approximate positions of busy
 * places in central Chengdu) and a uniform background over the whole area. Every point is inside
 * {@link ChengduArea} and rounded to the record precision.
 */
final class HotSpots {
    /** lon, lat, weight, spread (metres, one standard deviation). */
    private static final double[][] SPOTS = {
            {104.0657, 30.6598, 3.0, 450},  // Tianfu Square
            {104.0811, 30.6571, 3.0, 400},  // Chunxi Road
            {104.0557, 30.6699, 2.0, 350},  // Kuanzhai Alley
            {104.0727, 30.6758, 1.5, 350},  // Wenshu Monastery
            {104.0737, 30.6968, 2.5, 500},  // North Railway Station
            {104.1045, 30.6748, 1.5, 500},  // Jianshe Road
    };
    private static final double TOTAL_WEIGHT;

    static {
        double sum = 0;
        for (double[] spot : SPOTS) {
            sum += spot[2];
        }
        TOTAL_WEIGHT = sum;
    }

    private final double hotShare;

    /** @param hotShare probability that a point is drawn around a hot spot rather than uniformly */
    HotSpots(double hotShare) {
        this.hotShare = hotShare;
    }

    /** Returns {lon, lat}. */
    double[] nextPoint(SplittableRandom random) {
        if (random.nextDouble() >= hotShare) {
            return uniform(random);
        }
        double[] spot = pickSpot(random);
        while (true) {
            double lat = spot[1] + gaussian(random) * spot[3] / Geo.METRES_PER_DEGREE;
            double lon = spot[0] + gaussian(random) * spot[3] / (Geo.METRES_PER_DEGREE * Math.cos(Math.toRadians(spot[1])));
            if (ChengduArea.contains(lon, lat)) {
                return new double[] {Geo.round6(lon), Geo.round6(lat)};
            }
        }
    }

    static double[] uniform(SplittableRandom random) {
        return new double[] {
                Geo.round6(random.nextDouble(ChengduArea.MIN_LON, ChengduArea.MAX_LON)),
                Geo.round6(random.nextDouble(ChengduArea.MIN_LAT, ChengduArea.MAX_LAT))};
    }

    private static double[] pickSpot(SplittableRandom random) {
        double r = random.nextDouble(TOTAL_WEIGHT);
        for (double[] spot : SPOTS) {
            r -= spot[2];
            if (r < 0) {
                return spot;
            }
        }
        return SPOTS[SPOTS.length - 1];
    }

    /** Standard normal by Box-Muller (SplittableRandom has no nextGaussian on Java 17). */
    static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
