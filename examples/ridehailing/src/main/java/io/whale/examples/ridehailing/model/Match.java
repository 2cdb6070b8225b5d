package io.whale.examples.ridehailing.model;

/**
 * The dispatch result of one order: the nearest driver within the radius, or none.
 * Ties on distance go to the smallest driver id, so the result does not depend on arrival order.
 */
public record Match(String orderId, String driverId, double distanceMetres) {
    public static final String NO_DRIVER = "";

    public boolean hasDriver() {
        return !driverId.isEmpty();
    }

    /** True when a candidate at {@code distance} with id {@code driver} beats {@code (bestDistance, bestDriver)}. */
    public static boolean better(double distance, String driver, double bestDistance, String bestDriver) {
        if (bestDriver.isEmpty()) {
            return !driver.isEmpty();
        }
        if (driver.isEmpty()) {
            return false;
        }
        int byDistance = Double.compare(distance, bestDistance);
        return byDistance < 0 || (byDistance == 0 && driver.compareTo(bestDriver) < 0);
    }
}
