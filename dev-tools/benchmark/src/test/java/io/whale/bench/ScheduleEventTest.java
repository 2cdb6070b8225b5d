package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleEventTest {
    static final ZoneId UTC = ZoneOffset.UTC;
    static final List<String> LOG = List.of(
        "2026-11-23 13:13:20.000 i.w.b.OrderSpout Thread-16-orders-executor[1, 1] [INFO] Offered rate step 1 of 3: 200 orders/s (began 0 ms ago); the step before left 0 arrivals unemitted",
        "2026-11-23 13:13:24.048 c.c.m.ConsoleReporter metrics-console-reporter-1-thread-1 [INFO] storm.worker.x.__system.-1.16110-relay-last-above-waterline-ms",
        "2026-11-23 13:13:30.012 i.w.b.OrderSpout Thread-16-orders-executor[1, 1] [INFO] Offered rate step 2 of 3: 700 orders/s (began 12 ms ago); the step before left 3 arrivals unemitted",
        "2026-11-23 13:13:30.300 i.w.r.TreeShaper Thread-16-orders-executor[1, 1] [INFO] Multicast queue above the waterline (500): 612 tuples",
        "2026-11-23 13:13:31.000 i.w.r.TreeShaper client-worker-1 [INFO] Multicast trees, epoch 1: d* auto -> 2 (SCALE_DOWN: queue 4 -> 612, lambda 700/s, t_e 900.0 us, 3 moves); drained in 400 ms",
        "2026-11-23 13:13:31.600 i.w.r.TreeShaper Thread-16-orders-executor[1, 1] [INFO] Multicast queue back under the waterline (500) after 1300 ms above it (peak 900 tuples)",
        "2026-11-23 13:13:40.000 i.w.b.OrderSpout Thread-16-orders-executor[1, 1] [INFO] Offered rate step 3 of 3: 200 orders/s (began 0 ms ago); the step before left 0 arrivals unemitted",
        "2026-11-23 13:13:50.005 i.w.b.OrderSpout Thread-16-orders-executor[1, 1] [INFO] Offered rate schedule over (5 ms ago); the last step left 0 arrivals unemitted");

    static long at(String time) {
        return LocalDateTime.parse("2026-11-23T" + time).atZone(UTC).toInstant().toEpochMilli();
    }

    @Test
    void shouldReadStepsFromWhenTheyBeganAndTheControllersLinesInLogOrder() {
        List<ScheduleEvent> events = ScheduleEvent.parse(LOG, UTC);

        assertEquals(List.of(ScheduleEvent.Kind.STEP, ScheduleEvent.Kind.STEP, ScheduleEvent.Kind.ABOVE_WATERLINE, ScheduleEvent.Kind.SWITCH,
            ScheduleEvent.Kind.UNDER_WATERLINE, ScheduleEvent.Kind.STEP, ScheduleEvent.Kind.OVER), events.stream().map(ScheduleEvent::kind).toList());
        assertEquals(at("13:13:30.000"), events.get(1).epochMillis(), "the step began 12 ms before its line");
        assertEquals(at("13:13:50.000"), events.get(6).epochMillis());
        assertEquals(at("13:13:31.000"), events.get(3).epochMillis(), "a switch is timed at its flip");
        assertEquals(new ScheduleEvent.Switch("auto", "2", "SCALE_DOWN", 400), events.get(3).switched());
        assertEquals(new ScheduleEvent.Switch("1", "3", "forced", 3), new ScheduleEvent(0, ScheduleEvent.Kind.SWITCH,
            "Multicast trees, epoch 2: d* 1 -> 3 (forced (10 ms), 1 move); drained in 3 ms").switched());
    }
}
