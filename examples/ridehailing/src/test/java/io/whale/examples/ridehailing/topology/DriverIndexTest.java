package io.whale.examples.ridehailing.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import io.whale.examples.ridehailing.model.ChengduArea;
import io.whale.examples.ridehailing.model.Geo;
import io.whale.examples.ridehailing.model.Match;
import org.junit.jupiter.api.Test;

class DriverIndexTest {
    private static final double CENTRE_LAT = (ChengduArea.MIN_LAT + ChengduArea.MAX_LAT) / 2;

    @Test
    void shouldFindExactlyTheDriversABruteForceScanFinds() {
        SplittableRandom random = new SplittableRandom(42);
        DriverIndex index = new DriverIndex(400, CENTRE_LAT);
        Map<String, double[]> latest = new HashMap<>();
        for (int i = 0; i < 5_000; i++) {
            String driver = "d" + random.nextInt(800);
            double lon = Geo.round6(random.nextDouble(ChengduArea.MIN_LON, ChengduArea.MAX_LON));
            double lat = Geo.round6(random.nextDouble(ChengduArea.MIN_LAT, ChengduArea.MAX_LAT));
            index.update(driver, i, lon, lat);
            latest.put(driver, new double[] {lon, lat});
        }
        for (int q = 0; q < 500; q++) {
            double lon = random.nextDouble(ChengduArea.MIN_LON, ChengduArea.MAX_LON);
            double lat = random.nextDouble(ChengduArea.MIN_LAT, ChengduArea.MAX_LAT);
            int count = 0;
            String best = Match.NO_DRIVER;
            double bestDistance = Double.POSITIVE_INFINITY;
            for (var e : latest.entrySet()) {
                double d = Geo.distanceMetres(lon, lat, e.getValue()[0], e.getValue()[1]);
                if (d <= 400) {
                    count++;
                    if (Match.better(d, e.getKey(), bestDistance, best)) {
                        best = e.getKey();
                        bestDistance = d;
                    }
                }
            }
            assertEquals(new DriverIndex.Candidates(count, best, bestDistance), index.near(lon, lat));
        }
    }

    @Test
    void shouldIgnoreAnOlderPositionAndBreakDistanceTiesBySmallestDriverId() {
        DriverIndex index = new DriverIndex(500, CENTRE_LAT);
        index.update("b", 10, 104.08, 30.69);
        index.update("a", 10, 104.08, 30.69);
        index.update("b", 5, 104.10, 30.70);
        DriverIndex.Candidates near = index.near(104.08, 30.69);
        assertEquals(2, near.count());
        assertEquals("a", near.bestDriver());
        assertEquals(0.0, near.bestDistance());
        index.update("a", 11, 104.12, 30.72);
        assertEquals("b", index.near(104.08, 30.69).bestDriver());
        assertEquals(2, index.size());
    }
}
