package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchPointTest {
    @Test
    void withoutTransportsTheSweepAndItsNamesAreNettysAsBefore() {
        BenchOptions options = BenchOptions.parse("--matchers", "8", "--workers", "2");
        List<BenchPoint> points = BenchPoint.sweep(options.matchers(), options.workers(), options.transports());

        assertEquals(List.of("bench-p8-w2-stock", "bench-p8-w2-woc", "bench-p8-w1"), points.stream().map(BenchPoint::name).toList());
        assertEquals(List.of("W=2 WOC off", "W=2 WOC on", "W=1 ceiling"), points.stream().map(BenchPoint::label).toList());
        assertEquals(List.of("netty", "netty", "netty"), points.stream().map(BenchPoint::transport).toList());
    }

    @Test
    void eachTransportGetsWocOffAndOnPerWorkerCountAndTheCeilingRunsOnceOverTheFirst() {
        BenchOptions options = BenchOptions.parse("--matchers", "8", "--workers", "2,4", "--transports", "netty,rdma");
        List<BenchPoint> points = BenchPoint.sweep(options.matchers(), options.workers(), options.transports());

        assertEquals(List.of("W=2 WOC off netty", "W=2 WOC on netty", "W=2 WOC off rdma", "W=2 WOC on rdma",
            "W=4 WOC off netty", "W=4 WOC on netty", "W=4 WOC off rdma", "W=4 WOC on rdma", "W=1 ceiling netty"),
            points.stream().map(BenchPoint::label).toList());
        assertEquals("bench-p8-w2-woc-rdma", points.get(3).name());
        assertEquals("bench-p8-w1-netty", points.get(8).name());
    }

    @Test
    void anUnknownTransportIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--transports", "netty,udp"));
    }
}
