package io.whale.examples.ridehailing.topology;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.whale.examples.ridehailing.model.DriverLocation;
import io.whale.examples.ridehailing.model.Geo;
import io.whale.examples.ridehailing.model.Match;
import io.whale.examples.ridehailing.model.Order;

/**
 * The single-threaded oracle: every driver at its latest reported position, every order given the
 * nearest driver within the radius by a full scan (ties to the smallest driver id).
 */
final class ReferenceDispatcher {
    private ReferenceDispatcher() {
    }

    static Map<String, Match> dispatch(List<DriverLocation> trajectory, List<Order> orders, double radiusMetres) {
        Map<String, DriverLocation> latest = new HashMap<>();
        for (DriverLocation d : trajectory) {
            latest.merge(d.driverId(), d, (old, now) -> now.unixTs() >= old.unixTs() ? now : old);
        }
        Map<String, Match> matches = new LinkedHashMap<>();
        for (Order order : orders) {
            String best = Match.NO_DRIVER;
            double bestDistance = Double.POSITIVE_INFINITY;
            for (DriverLocation d : latest.values()) {
                double distance = Geo.distanceMetres(order.pickupLon(), order.pickupLat(), d.lon(), d.lat());
                if (distance <= radiusMetres && Match.better(distance, d.driverId(), bestDistance, best)) {
                    best = d.driverId();
                    bestDistance = distance;
                }
            }
            matches.put(order.orderId(), new Match(order.orderId(), best, bestDistance));
        }
        return matches;
    }
}
