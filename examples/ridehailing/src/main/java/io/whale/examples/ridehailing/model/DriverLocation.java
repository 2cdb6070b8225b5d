package io.whale.examples.ridehailing.model;

import io.whale.examples.gen.CsvRecord;

/** One Didi trajectory record: {@code driver_id, order_id, unix_ts, lon, lat}. Keyed by driver. */
public record DriverLocation(String driverId, String orderId, long unixTs, double lon, double lat) implements CsvRecord {
    public static final String HEADER = "driver_id,order_id,unix_ts,lon,lat";

    public static DriverLocation parse(String csv) {
        String[] f = csv.split(",", -1);
        if (f.length != 5) {
            throw new IllegalArgumentException("expected 5 fields in trajectory record: " + csv);
        }
        return new DriverLocation(f[0], f[1], Long.parseLong(f[2]), Double.parseDouble(f[3]), Double.parseDouble(f[4]));
    }

    @Override
    public String key() {
        return driverId;
    }

    @Override
    public String toCsv() {
        return driverId + ',' + orderId + ',' + unixTs + ',' + Geo.format6(lon) + ',' + Geo.format6(lat);
    }
}
