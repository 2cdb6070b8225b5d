package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ScheduleEventTest {
    static final ZoneId UTC = ZoneOffset.UTC;
    private static final String PREFIX = "storm.worker.x.localhost.__system.-1.16110-";

    /**
     * The spout's worker.log over three steps: the steps as the spout logs them and, every second from 13:13:30, the
     * controller's metrics as the console reporter prints them. The queue rises above the waterline at 30.300, the
     * trees flip at 31.000 (d* 2, drained in 400 ms), the queue is back under at 31.600; at 41.200 and 41.700 two
     * switches fall into one report period.
     */
    static final String LOG = spout("13:13:20.000", "Offered rate step 1 of 3: 200 orders/s (began 0 ms ago); the step before left 0 arrivals unemitted")
        + report("13:13:30.050", Map.of(), Map.of())
        + spout("13:13:30.012", "Offered rate step 2 of 3: 700 orders/s (began 12 ms ago); the step before left 3 arrivals unemitted")
        + report("13:13:31.050", Map.of("relay-above-waterline", 1L, "relay-switches-down", 1L),
            Map.of("relay-last-above-waterline-at-ms", at("13:13:30.300"), "relay-last-switch-at-ms", at("13:13:31.000"),
                "relay-last-switch-from", 0.0, "relay-last-switch-to", 2.0, "relay-last-switch-drain-ms", 400.0))
        + report("13:13:32.050", Map.of("relay-above-waterline", 1L, "relay-switches-down", 1L),
            Map.of("relay-last-above-waterline-at-ms", at("13:13:30.300"), "relay-last-under-waterline-at-ms", at("13:13:31.600"),
                "relay-last-switch-at-ms", at("13:13:31.000"), "relay-last-switch-from", 0.0, "relay-last-switch-to", 2.0,
                "relay-last-switch-drain-ms", 400.0, "relay-input-rate", Double.NaN))
        + spout("13:13:40.000", "Offered rate step 3 of 3: 200 orders/s (began 0 ms ago); the step before left 0 arrivals unemitted")
        + report("13:13:42.050", Map.of("relay-above-waterline", 1L, "relay-switches-down", 1L, "relay-switches-up", 2L),
            Map.of("relay-last-above-waterline-at-ms", at("13:13:30.300"), "relay-last-under-waterline-at-ms", at("13:13:31.600"),
                "relay-last-switch-at-ms", at("13:13:41.700"), "relay-last-switch-from", 3.0, "relay-last-switch-to", 4.0,
                "relay-last-switch-drain-ms", 5.0))
        + spout("13:13:50.005", "Offered rate schedule over (5 ms ago); the last step left 0 arrivals unemitted");

    static double at(String time) {
        return LocalDateTime.parse("2026-11-23T" + time).atZone(UTC).toInstant().toEpochMilli();
    }

    private static String spout(String time, String message) {
        return "2026-11-23 " + time + " i.w.b.OrderSpout Thread-16-orders-executor[1, 1] [INFO] " + message + "\n";
    }

    /** A console reporter's report: its gauges' section, then its counters'. */
    private static String report(String time, Map<String, Long> counters, Map<String, Double> gauges) {
        StringBuilder s = new StringBuilder(reporter(time, "11/23/26, 1:13:30 PM ==========================================="))
            .append(reporter(time, "")).append(reporter(time, "-- Gauges ----------------------------------------"));
        new TreeMap<>(gauges).forEach((name, value) -> s.append(reporter(time, PREFIX + name))
            .append(reporter(time, "             value = " + value)));
        s.append(reporter(time, "")).append(reporter(time, "-- Counters --------------------------------------"));
        new TreeMap<>(counters).forEach((name, count) -> s.append(reporter(time, PREFIX + name)).append(reporter(time, "             count = " + count)));
        return s.append(reporter(time, "")).append(reporter(time, "")).toString();
    }

    private static String reporter(String time, String message) {
        return "2026-11-23 " + time + " c.c.m.ConsoleReporter metrics-console-reporter-1-thread-1 [INFO] " + message + "\n";
    }

    @Test
    void shouldReadStepsFromWhenTheyBeganAndTheControllersEventsFromItsMetricsInTimeOrder() {
        List<ScheduleEvent> events = ScheduleEvent.parse(LOG, UTC);

        assertEquals(List.of(ScheduleEvent.Kind.STEP, ScheduleEvent.Kind.STEP, ScheduleEvent.Kind.ABOVE_WATERLINE, ScheduleEvent.Kind.SWITCH,
            ScheduleEvent.Kind.UNDER_WATERLINE, ScheduleEvent.Kind.STEP, ScheduleEvent.Kind.SWITCH, ScheduleEvent.Kind.OVER),
            events.stream().map(ScheduleEvent::kind).toList());
        assertEquals((long) at("13:13:30.000"), events.get(1).epochMillis(), "the step began 12 ms before its line");
        assertEquals((long) at("13:13:30.300"), events.get(2).epochMillis(), "timed by the metric, not by the report");
        assertEquals((long) at("13:13:31.000"), events.get(3).epochMillis(), "a switch is timed at its flip");
        assertEquals(new ScheduleEvent.Switch("auto", "2", "SCALE_DOWN", 400, 0), events.get(3).switched());
        assertEquals((long) at("13:13:31.600"), events.get(4).epochMillis());
        assertEquals(new ScheduleEvent.Switch("3", "4", "SCALE_UP", 5, 1), events.get(6).switched(),
            "the counters rose by two in one report period: the last switch is timed, the other counted");
        assertEquals((long) at("13:13:50.000"), events.get(7).epochMillis());
    }

    @Test
    void shouldTellAForcedSwitchByTheDrillsCounter() {
        String log = report("13:13:31.050", Map.of("relay-switches-down", 1L, "relay-switches-forced", 1L),
            Map.of("relay-last-switch-at-ms", at("13:13:31.000"), "relay-last-switch-from", 0.0, "relay-last-switch-to", 1.0,
                "relay-last-switch-drain-ms", 3.0));

        assertEquals(List.of(new ScheduleEvent.Switch("auto", "1", "forced", 3, 0)),
            ScheduleEvent.parse(log, UTC).stream().map(ScheduleEvent::switched).toList());
    }
}
