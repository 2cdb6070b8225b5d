package io.whale.bench;

import java.util.SplittableRandom;

/** The matcher's work per order: the nearest of a fixed set of random points (squared planar distance). */
final class NearestPoint {
    private final double[] lon;
    private final double[] lat;

    NearestPoint(int points, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        lon = new double[points];
        lat = new double[points];
        for (int i = 0; i < points; i++) {
            lon[i] = random.nextDouble(-180, 180);
            lat[i] = random.nextDouble(-90, 90);
        }
    }

    int nearest(double x, double y) {
        int best = 0;
        double bestDistance = Double.MAX_VALUE;
        for (int i = 0; i < lon.length; i++) {
            double dx = lon[i] - x;
            double dy = lat[i] - y;
            double d = dx * dx + dy * dy;
            if (d < bestDistance) {
                bestDistance = d;
                best = i;
            }
        }
        return best;
    }
}
