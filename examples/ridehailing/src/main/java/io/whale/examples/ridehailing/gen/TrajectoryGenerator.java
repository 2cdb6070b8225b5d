package io.whale.examples.ridehailing.gen;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

import io.whale.examples.ridehailing.model.ChengduArea;
import io.whale.examples.ridehailing.model.DriverLocation;
import io.whale.examples.ridehailing.model.Geo;

/**
 * Didi-format trajectories: a fleet of drivers, each driving at its own speed towards a destination
 * (a hot spot or anywhere in the area), picking a new destination and trip id on arrival, and
 * reporting its position every {@code intervalSeconds}. Records come in time order, one round of
 * the whole fleet per interval, so any prefix is a consistent snapshot. Same seed, same records.
 */
public final class TrajectoryGenerator implements Iterator<DriverLocation> {
    private final SplittableRandom random;
    private final HotSpots destinations = new HotSpots(0.6);
    private final long limit;
    private final long startTs;
    private final int intervalSeconds;
    private final Driver[] fleet;
    private long produced;

    private static final class Driver {
        final String id;
        final int phase;
        final double speed;
        String tripId;
        double lon;
        double lat;
        double targetLon;
        double targetLat;

        Driver(String id, int phase, double speed) {
            this.id = id;
            this.phase = phase;
            this.speed = speed;
        }
    }

    /**
     * @param drivers         fleet size
     * @param records         how many records to produce in total
     * @param startTs         unix time of the first round
     * @param intervalSeconds seconds between two positions of one driver
     */
    public TrajectoryGenerator(long seed, int drivers, long records, long startTs, int intervalSeconds) {
        if (drivers <= 0 || intervalSeconds <= 0) {
            throw new IllegalArgumentException("drivers and interval must be positive");
        }
        this.random = new SplittableRandom(seed);
        this.limit = records;
        this.startTs = startTs;
        this.intervalSeconds = intervalSeconds;
        this.fleet = new Driver[drivers];
        for (int i = 0; i < drivers; i++) {
            Driver d = new Driver(HexIds.next(random), random.nextInt(intervalSeconds), random.nextDouble(4.0, 14.0));
            double[] start = HotSpots.uniform(random);
            d.lon = start[0];
            d.lat = start[1];
            newTrip(d);
            fleet[i] = d;
        }
    }

    @Override
    public boolean hasNext() {
        return produced < limit;
    }

    @Override
    public DriverLocation next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        long round = produced / fleet.length;
        Driver d = fleet[(int) (produced % fleet.length)];
        if (round > 0) {
            move(d);
        }
        produced++;
        return new DriverLocation(d.id, d.tripId, startTs + round * intervalSeconds + d.phase, d.lon, d.lat);
    }

    private void move(Driver d) {
        double step = d.speed * intervalSeconds * random.nextDouble(0.7, 1.1);
        double cosLat = Math.cos(Math.toRadians(d.lat));
        double dx = (d.targetLon - d.lon) * Geo.METRES_PER_DEGREE * cosLat;
        double dy = (d.targetLat - d.lat) * Geo.METRES_PER_DEGREE;
        double remaining = Math.hypot(dx, dy);
        if (remaining <= step) {
            d.lon = d.targetLon;
            d.lat = d.targetLat;
            newTrip(d);
            return;
        }
        // Along the straight line with a little GPS-like sideways noise, kept inside the area.
        double noise = HotSpots.gaussian(random) * 5;
        double lon = d.lon + (dx / remaining * step - dy / remaining * noise) / (Geo.METRES_PER_DEGREE * cosLat);
        double lat = d.lat + (dy / remaining * step + dx / remaining * noise) / Geo.METRES_PER_DEGREE;
        d.lon = Geo.round6(Math.min(ChengduArea.MAX_LON, Math.max(ChengduArea.MIN_LON, lon)));
        d.lat = Geo.round6(Math.min(ChengduArea.MAX_LAT, Math.max(ChengduArea.MIN_LAT, lat)));
    }

    private void newTrip(Driver d) {
        double[] target = destinations.nextPoint(random);
        d.targetLon = target[0];
        d.targetLat = target[1];
        d.tripId = HexIds.next(random);
    }
}
