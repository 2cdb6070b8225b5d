package io.whale.examples.ridehailing.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import io.whale.examples.ridehailing.model.ChengduArea;
import io.whale.examples.ridehailing.model.DriverLocation;
import io.whale.examples.ridehailing.model.Geo;
import io.whale.examples.ridehailing.model.Order;
import org.junit.jupiter.api.Test;

class DidiGeneratorsTest {
    private static final long START = DidiGeneratorMain.DEFAULT_START_TS;

    @Test
    void shouldProduceTheSameTrajectoriesForTheSameSeedAndOthersForAnother() {
        List<DriverLocation> a = take(new TrajectoryGenerator(7, 50, 2_000, START, 3));
        assertEquals(a, take(new TrajectoryGenerator(7, 50, 2_000, START, 3)));
        assertNotEquals(a, take(new TrajectoryGenerator(8, 50, 2_000, START, 3)));
        assertEquals(2_000, a.size());
    }

    @Test
    void shouldWriteTrajectoryRecordsThatParseBackToThemselves() {
        for (DriverLocation d : take(new TrajectoryGenerator(1, 20, 500, START, 3))) {
            assertEquals(d, DriverLocation.parse(d.toCsv()));
            assertEquals(5, d.toCsv().split(",").length);
            assertEquals(32, d.driverId().length());
        }
    }

    @Test
    void shouldMoveDriversPlausiblyInsideChengduInTimeOrder() {
        Map<String, DriverLocation> last = new HashMap<>();
        long previousTs = Long.MIN_VALUE;
        long previousRound = -1;
        int trips = 0;
        for (DriverLocation d : take(new TrajectoryGenerator(3, 100, 20_000, START, 3))) {
            assertTrue(ChengduArea.contains(d.lon(), d.lat()), d.toString());
            long round = (d.unixTs() - START) / 3;
            assertTrue(round >= previousRound, "records come round by round");
            previousRound = round;
            DriverLocation before = last.put(d.driverId(), d);
            if (before != null) {
                assertEquals(3, d.unixTs() - before.unixTs());
                double metres = Geo.distanceMetres(before.lon(), before.lat(), d.lon(), d.lat());
                assertTrue(metres <= 14 * 3 * 1.1 + 30, "a driver moves at city speed, moved " + metres);
                if (!d.orderId().equals(before.orderId())) {
                    trips++;
                }
            }
            previousTs = d.unixTs();
        }
        assertEquals(100, last.size());
        assertTrue(previousTs > START);
        assertTrue(trips > 10, "drivers finish trips and start new ones: " + trips);
    }

    @Test
    void shouldProduceTheSameOrdersForTheSameSeedAndParseBack() {
        List<Order> a = take(new OrderGenerator(11, 1_000, START, 50_000));
        assertEquals(a, take(new OrderGenerator(11, 1_000, START, 50_000)));
        assertNotEquals(a, take(new OrderGenerator(12, 1_000, START, 50_000)));
        for (Order o : a) {
            assertEquals(o, Order.parse(o.toCsv()));
            assertTrue(o.endTs() > o.startTs());
            assertTrue(ChengduArea.contains(o.pickupLon(), o.pickupLat()));
            assertTrue(ChengduArea.contains(o.dropLon(), o.dropLat()));
        }
    }

    @Test
    void shouldFollowTheDailyRateCurve() {
        int[] perHour = new int[24];
        long previous = 0;
        for (Order o : take(new OrderGenerator(5, 40_000, START, 40_000))) {
            assertTrue(o.startTs() >= previous, "orders come in start time order");
            previous = o.startTs();
            perHour[DailyRateCurve.hourOfDay(o.startTs())]++;
        }
        // About one day of orders: the peaks are roughly 10x the small hours, as the curve says.
        double expectedRatio = DailyRateCurve.relativeRate(18) / DailyRateCurve.relativeRate(4);
        double ratio = (double) perHour[18] / perHour[4];
        assertTrue(ratio > expectedRatio * 0.6 && ratio < expectedRatio * 1.6, "evening/night ratio " + ratio);
        assertTrue(perHour[8] > 2 * perHour[3]);
    }

    @Test
    void shouldConcentratePickupsAroundHotSpots() {
        int nearTianfuSquare = 0;
        int total = 10_000;
        for (Order o : take(new OrderGenerator(9, total, START, 100_000))) {
            if (Geo.distanceMetres(o.pickupLon(), o.pickupLat(), 104.0657, 30.6598) < 500) {
                nearTianfuSquare++;
            }
        }
        double circleShareOfArea = Math.PI * 500 * 500 / (8_400.0 * 8_300.0);
        assertTrue(nearTianfuSquare > total * circleShareOfArea * 3,
                "hot spot gets far more than its area share: " + nearTianfuSquare);
    }

    private static <T> List<T> take(Iterator<T> it) {
        List<T> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
