package io.whale.examples.ridehailing.model;

/** The bounding box of the Didi GAIA Chengdu data set (inside the Second Ring Road). */
public final class ChengduArea {
    public static final double MIN_LON = 104.04214;
    public static final double MAX_LON = 104.12958;
    public static final double MIN_LAT = 30.65294;
    public static final double MAX_LAT = 30.72775;

    private ChengduArea() {
    }

    public static boolean contains(double lon, double lat) {
        return lon >= MIN_LON && lon <= MAX_LON && lat >= MIN_LAT && lat <= MAX_LAT;
    }
}
