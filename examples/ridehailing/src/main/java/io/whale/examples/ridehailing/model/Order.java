package io.whale.examples.ridehailing.model;

import io.whale.examples.gen.CsvRecord;

/** One Didi order record: {@code order_id, start_ts, end_ts, pickup_lon, pickup_lat, drop_lon, drop_lat}. Keyed by order. */
public record Order(String orderId, long startTs, long endTs, double pickupLon, double pickupLat,
                    double dropLon, double dropLat) implements CsvRecord {
    public static final String HEADER = "order_id,start_ts,end_ts,pickup_lon,pickup_lat,drop_lon,drop_lat";

    public static Order parse(String csv) {
        String[] f = csv.split(",", -1);
        if (f.length != 7) {
            throw new IllegalArgumentException("expected 7 fields in order record: " + csv);
        }
        return new Order(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Double.parseDouble(f[3]),
                Double.parseDouble(f[4]), Double.parseDouble(f[5]), Double.parseDouble(f[6]));
    }

    @Override
    public String key() {
        return orderId;
    }

    @Override
    public String toCsv() {
        return orderId + ',' + startTs + ',' + endTs + ',' + Geo.format6(pickupLon) + ',' + Geo.format6(pickupLat)
                + ',' + Geo.format6(dropLon) + ',' + Geo.format6(dropLat);
    }
}
