package io.whale.examples.ridehailing.model;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Great-circle distances and the fixed 6-decimal coordinate format of the Didi records. */
public final class Geo {
    private static final double EARTH_RADIUS_M = 6_371_008.8;
    /** Metres per degree of latitude (and of longitude at the equator). */
    public static final double METRES_PER_DEGREE = Math.toRadians(1) * EARTH_RADIUS_M;

    private Geo() {
    }

    /** Haversine distance in metres. */
    public static double distanceMetres(double lon1, double lat1, double lon2, double lat2) {
        double dLat = Math.toRadians(lat2 - lat1);
        double dLon = Math.toRadians(lon2 - lon1);
        double a = Math.sin(dLat / 2) * Math.sin(dLat / 2)
                + Math.cos(Math.toRadians(lat1)) * Math.cos(Math.toRadians(lat2)) * Math.sin(dLon / 2) * Math.sin(dLon / 2);
        return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
    }

    /** Rounds to 6 decimals (about 0.1 m), the precision records are written with, so a parsed record equals the generated one. */
    public static double round6(double degrees) {
        return Math.round(degrees * 1e6) / 1e6;
    }

    public static String format6(double degrees) {
        return BigDecimal.valueOf(degrees).setScale(6, RoundingMode.HALF_UP).toPlainString();
    }
}
