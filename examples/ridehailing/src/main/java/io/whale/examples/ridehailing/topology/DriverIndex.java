package io.whale.examples.ridehailing.topology;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.whale.examples.ridehailing.model.Geo;
import io.whale.examples.ridehailing.model.Match;

/**
 * The latest known position of each driver, in a uniform grid whose cells are at least one radius
 * wide, so a radius query only looks at the 3x3 cells around the pick-up point.
 *
 * <p>A position only replaces one with an equal or older timestamp: replayed or reordered records
 * never move a driver back in time.
 */
final class DriverIndex {
    private final double radiusMetres;
    private final double cellLat;
    private final double cellLon;
    private final Map<String, Position> positions = new HashMap<>();
    private final Map<Long, Set<String>> cells = new HashMap<>();

    private record Position(long ts, double lon, double lat, long cell) {
    }

    /** Result of a radius query: how many drivers are within the radius and the best of them. */
    record Candidates(int count, String bestDriver, double bestDistance) {
    }

    /** @param referenceLat latitude at which the longitude width of a cell is computed (the area's centre) */
    DriverIndex(double radiusMetres, double referenceLat) {
        this.radiusMetres = radiusMetres;
        this.cellLat = radiusMetres / Geo.METRES_PER_DEGREE;
        // Slightly wider cells than strictly needed so a radius never spans more than one cell in any direction.
        this.cellLon = radiusMetres / (Geo.METRES_PER_DEGREE * Math.cos(Math.toRadians(referenceLat) + 0.01));
    }

    void update(String driverId, long ts, double lon, double lat) {
        Position old = positions.get(driverId);
        if (old != null && old.ts > ts) {
            return;
        }
        long cell = cellOf(lon, lat);
        if (old != null && old.cell != cell) {
            Set<String> members = cells.get(old.cell);
            members.remove(driverId);
            if (members.isEmpty()) {
                cells.remove(old.cell);
            }
        }
        if (old == null || old.cell != cell) {
            cells.computeIfAbsent(cell, c -> new HashSet<>()).add(driverId);
        }
        positions.put(driverId, new Position(ts, lon, lat, cell));
    }

    Candidates near(double lon, double lat) {
        long x = cellX(lon);
        long y = cellY(lat);
        int count = 0;
        String best = Match.NO_DRIVER;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (long dx = -1; dx <= 1; dx++) {
            for (long dy = -1; dy <= 1; dy++) {
                Set<String> members = cells.get(key(x + dx, y + dy));
                if (members == null) {
                    continue;
                }
                for (String driver : members) {
                    Position p = positions.get(driver);
                    double distance = Geo.distanceMetres(lon, lat, p.lon, p.lat);
                    if (distance <= radiusMetres) {
                        count++;
                        if (Match.better(distance, driver, bestDistance, best)) {
                            best = driver;
                            bestDistance = distance;
                        }
                    }
                }
            }
        }
        return new Candidates(count, best, bestDistance);
    }

    int size() {
        return positions.size();
    }

    private long cellOf(double lon, double lat) {
        return key(cellX(lon), cellY(lat));
    }

    private long cellX(double lon) {
        return (long) Math.floor(lon / cellLon);
    }

    private long cellY(double lat) {
        return (long) Math.floor(lat / cellLat);
    }

    private static long key(long x, long y) {
        return (x << 32) ^ (y & 0xFFFFFFFFL);
    }
}
