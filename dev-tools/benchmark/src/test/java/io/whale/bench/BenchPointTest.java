package io.whale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchPointTest {
    @Test
    void withoutTransportsTheSweepAndItsNamesAreNettysAsBefore() {
        List<BenchPoint> points = BenchPoint.sweep(BenchOptions.parse("--matchers", "8", "--workers", "2"));

        assertEquals(List.of("bench-p8-w2-whale-nowoc", "bench-p8-w2-whale-woc", "bench-p8-w1"), points.stream().map(BenchPoint::name).toList());
        assertEquals(List.of("W=2 Whale, WOC off", "W=2 Whale-WOC", "W=1 ceiling"), points.stream().map(BenchPoint::label).toList());
        assertEquals(List.of("netty", "netty", "netty"), points.stream().map(BenchPoint::transport).toList());
    }

    @Test
    void eachTransportGetsWocOffAndOnPerWorkerCountAndTheCeilingRunsOnceOverTheFirst() {
        List<BenchPoint> points = BenchPoint.sweep(BenchOptions.parse("--matchers", "8", "--workers", "2,4", "--transports", "netty,rdma"));

        assertEquals(List.of("W=2 Whale, WOC off netty", "W=2 Whale-WOC netty", "W=2 Whale, WOC off rdma", "W=2 Whale-WOC rdma",
            "W=4 Whale, WOC off netty", "W=4 Whale-WOC netty", "W=4 Whale, WOC off rdma", "W=4 Whale-WOC rdma", "W=1 ceiling netty"),
            points.stream().map(BenchPoint::label).toList());
        assertEquals("bench-p8-w2-whale-woc-rdma", points.get(3).name());
        assertEquals("bench-p8-w1-netty", points.get(8).name());
    }

    @Test
    void shouldRunStockStormOverNettyOnlyAndInterleaveRepeatsPerWaitSetting() {
        List<BenchPoint> points = BenchPoint.sweep(BenchOptions.parse("--matchers", "64", "--workers", "2", "--transports",
            "netty,rdma", "--systems", "storm,whale-woc", "--waits", "default,level2-0", "--repeats", "2", "--no-ceiling"));

        assertEquals(List.of(
            "bench-p64-w2-storm-netty-default-1", "bench-p64-w2-whale-woc-netty-default-1", "bench-p64-w2-whale-woc-rdma-default-1",
            "bench-p64-w2-storm-netty-default-2", "bench-p64-w2-whale-woc-netty-default-2", "bench-p64-w2-whale-woc-rdma-default-2",
            "bench-p64-w2-storm-netty-level2-0-1", "bench-p64-w2-whale-woc-netty-level2-0-1", "bench-p64-w2-whale-woc-rdma-level2-0-1",
            "bench-p64-w2-storm-netty-level2-0-2", "bench-p64-w2-whale-woc-netty-level2-0-2", "bench-p64-w2-whale-woc-rdma-level2-0-2"),
            points.stream().map(BenchPoint::name).toList());
        assertEquals("W=2 Storm netty wait level2-0", points.get(6).label(), "repeats share a label");
    }

    @Test
    void shouldGiveStockStormNoWhaleKeyAndEveryPointItsWaitAndRate() {
        BenchOptions options = BenchOptions.parse("--matchers", "4", "--workers", "2", "--systems", "storm,whale-nowoc",
            "--waits", "park100", "--rate", "5000");
        List<BenchPoint> points = BenchPoint.sweep(options);

        List<String> stock = points.get(0).overrides();
        assertTrue(stock.stream().noneMatch(o -> o.startsWith("whale.")), stock.toString());
        assertTrue(stock.contains("topology.bolt.wait.strategy=org.apache.storm.policy.WaitStrategyPark"));
        assertTrue(stock.contains(OrderSpout.RATE_KEY + "=5000.0"));
        assertEquals(List.of("-c", "whale.woc.enabled=false", "-c", "whale.transport=netty"), points.get(1).overrides().subList(0, 4));
        assertEquals("bench-p4-w2-storm-r5000", points.get(0).name());
    }

    @Test
    void shouldGiveEveryPointTheSharedSettingsLast() {
        List<BenchPoint> points = BenchPoint.sweep(BenchOptions.parse("--matchers", "4", "--workers", "2", "--set",
            "storm.messaging.netty.buffer_size=65536", "--no-ceiling"));
        List<String> overrides = points.get(1).overrides();
        assertEquals(List.of("-c", "storm.messaging.netty.buffer_size=65536"), overrides.subList(overrides.size() - 2, overrides.size()));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--set", "novalue"));
    }

    @Test
    void shouldMakeEveryPointButTheAtMostOnceOneAckWithOneAckerPerWorker() {
        List<BenchPoint> points = BenchPoint.sweep(BenchOptions.parse("--matchers", "64", "--workers", "2", "--systems",
            "storm,whale-woc,whale-woc-plainacks,whale-woc-atmostonce", "--acking", "10000", "--no-ceiling"));
        List<String> acking = List.of("-c", "topology.acker.executors=2", "-c", "topology.max.spout.pending=10000");
        for (BenchPoint point : points.subList(0, 3)) {
            assertTrue(point.overrides().containsAll(acking), point.overrides().toString());
        }
        assertTrue(points.get(2).overrides().contains("whale.woc.ack.combine=false"));
        assertTrue(points.get(3).overrides().stream().noneMatch(o -> o.startsWith("topology.acker")), "whale-woc-atmostonce never acks");
        assertTrue(BenchPoint.sweep(BenchOptions.parse("--matchers", "4", "--workers", "2")).stream()
            .allMatch(p -> p.overrides().stream().noneMatch(o -> o.startsWith("topology.acker"))), "no --acking: the topology's 0 ackers");
    }

    @Test
    void shouldLayTheClusterOutOnEmulatedHostsWithShapedLinks() {
        assertEquals(List.of("--supervisors", "2", "--slots", "4"), BenchOptions.parse().clusterLayout());
        assertEquals(List.of("--hosts", "2", "--slots", "4", "--link-mbit", "50"),
            BenchOptions.parse("--hosts", "2", "--link-mbit", "50").clusterLayout());
        assertEquals(List.of("--hosts", "8", "--slots", "1"), BenchOptions.parse("--hosts", "8", "--workers", "8").clusterLayout(),
            "one worker per host when every W fits");
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--link-mbit", "50"),
            "a link rate needs emulated hosts");
        assertEquals(List.of("--hosts", "4", "--slots", "1", "--host-cpus", "0.5"),
            BenchOptions.parse("--hosts", "4", "--host-cpus", "0.5").clusterLayout(), "each host held to half a core");
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--host-cpus", "0.5"), "host cores need emulated hosts");
    }

    @Test
    void tunedIsTheWaitWithoutItsParkLevel() {
        assertEquals(List.of(WaitSetting.NO_PARK_LEVEL), BenchOptions.parse("--tuned").waits());
    }

    @Test
    void anUnknownTransportSystemOrWaitIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--transports", "netty,udp"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--systems", "flink"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--waits", "spin"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--rate", "0"));
    }

    @Test
    void shouldTakeRateStepsThatEndAndRefuseOnesThatDoNotOrThatComeWithAnotherRate() {
        BenchOptions o = BenchOptions.parse("--rate-steps", "200:30,700:30,200:30", "--no-ceiling");
        assertTrue(o.stepsRate());
        assertEquals(90_000_000_000L, o.rateSteps().lengthNanos());

        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--rate-steps", "200:30,700"))
            .getMessage().startsWith("--rate-steps: the last step of '200:30,700' needs its seconds"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--rate-steps", "200:x"))
            .getMessage().startsWith("--rate-steps: seconds 'x'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--rate-steps", "200:30", "--rate", "5"))
            .getMessage().startsWith("--rate, --find-sustainable and --rate-steps exclude each other"));
    }

    @Test
    void shouldRunASystemThatNamesItsTransportOverItOnlyAndRefuseTransportsThatLeaveItOut() {
        List<BenchPoint> points = BenchPoint.sweep(BenchOptions.parse("--matchers", "16", "--workers", "4", "--transports",
            "netty,rdma", "--systems", "storm,whale-woc,whale-woc-rdma-nonblock", "--no-ceiling"));
        assertEquals(List.of("storm netty", "whale-woc netty", "whale-woc rdma", "whale-woc-rdma-nonblock rdma"),
            points.stream().map(p -> p.system().option() + " " + p.transport()).toList());
        assertTrue(points.get(3).overrides().containsAll(List.of("whale.transport=rdma", "whale.multicast.max.outdegree=auto")));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> BenchOptions.parse("--systems", "whale-woc-rdma-nonblock"));
        assertTrue(refused.getMessage().startsWith("--systems whale-woc-rdma-nonblock runs over rdma, which --transports netty leaves out"),
            refused.getMessage());
    }

    @Test
    void shouldNameTheOptionWhoseValueIsRefused() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--repeats", "two")).getMessage()
            .startsWith("--repeats takes a whole number, not 'two'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--matchers", "8,x")).getMessage()
            .startsWith("--matchers takes whole numbers, not '8,x'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--systems", "stock")).getMessage()
            .startsWith("--systems takes storm, whale-nowoc,"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse("--out")).getMessage()
            .startsWith("--out needs a value"));
    }
}
