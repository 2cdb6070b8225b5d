package io.whale.examples.ridehailing.gen;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

import io.whale.examples.ridehailing.model.Geo;
import io.whale.examples.ridehailing.model.Order;

/**
 * Didi-format orders in time order: arrivals follow {@link DailyRateCurve}, pick-ups and drop-offs
 * cluster around {@link HotSpots}, and a trip lasts a waiting time plus its distance at city speed.
 * Same seed, same records.
 */
public final class OrderGenerator implements Iterator<Order> {
    private final SplittableRandom random;
    private final HotSpots places = new HotSpots(0.7);
    private final DailyRateCurve curve;
    private final long limit;
    private double clock;
    private long produced;

    /**
     * @param records      how many orders to produce
     * @param startTs      unix time the arrival process starts at
     * @param ordersPerDay mean arrival rate over a day
     */
    public OrderGenerator(long seed, long records, long startTs, double ordersPerDay) {
        if (ordersPerDay <= 0) {
            throw new IllegalArgumentException("ordersPerDay must be positive");
        }
        this.random = new SplittableRandom(seed);
        this.curve = new DailyRateCurve(ordersPerDay);
        this.limit = records;
        this.clock = startTs;
    }

    @Override
    public boolean hasNext() {
        return produced < limit;
    }

    @Override
    public Order next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        clock = curve.nextArrival(clock, random);
        long start = (long) Math.floor(clock);
        double[] pickup = places.nextPoint(random);
        double[] drop = places.nextPoint(random);
        double metres = Geo.distanceMetres(pickup[0], pickup[1], drop[0], drop[1]);
        long duration = 60 + random.nextInt(240) + Math.round(metres / random.nextDouble(5.0, 10.0));
        produced++;
        return new Order(HexIds.next(random), start, start + duration, pickup[0], pickup[1], drop[0], drop[1]);
    }
}
