package io.whale.multicast.monitor;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueueMonitorTest {
    private final ManualClock clock = new ManualClock();
    private final AtomicInteger queue = new AtomicInteger();

    @Test
    void shouldAverageTheEmitTimePerReplicaOverAllTuplesOfAnInterval() {
        QueueMonitor monitor = new QueueMonitor(queue::get, clock, 0.5);
        assertTrue(Double.isNaN(monitor.emitNanosPerReplica()));
        monitor.recordEmit(3 * 4_000, 3);
        monitor.recordEmit(2 * 5_000, 2);
        monitor.recordEmit(4_000, 1);
        monitor.sample();
        assertEquals((12_000 + 10_000 + 4_000) / 6.0, monitor.emitNanosPerReplica(), 1e-9);
        assertEquals(3, monitor.tuplesMeasured());

        monitor.recordEmit(6_000, 1);
        monitor.sample();
        assertEquals(0.5 * (26_000 / 6.0) + 0.5 * 6_000, monitor.emitNanosPerReplica(), 1e-9);

        monitor.sample();
        assertEquals(0.5 * (26_000 / 6.0) + 0.5 * 6_000, monitor.emitNanosPerReplica(), 1e-9,
                "an interval without emits keeps the estimate");
    }

    @Test
    void shouldKeepThePreviousAndTheCurrentQueueLength() {
        QueueMonitor monitor = new QueueMonitor(queue::get, clock, 0.5);
        queue.set(10);
        clock.advanceMillis(10);
        monitor.sample();
        queue.set(25);
        clock.advanceMillis(10);
        monitor.sample();
        assertEquals(10, monitor.previousLength());
        assertEquals(25, monitor.currentLength());
        assertEquals(20_000_000L, monitor.sampleTimeNanos());
    }

    @Test
    void shouldIgnoreEmptyEmits() {
        QueueMonitor monitor = new QueueMonitor(queue::get, clock, 0.5);
        monitor.recordEmit(1_000, 0);
        monitor.recordEmit(-1, 3);
        monitor.sample();
        assertTrue(Double.isNaN(monitor.emitNanosPerReplica()));
    }

    @Test
    void shouldLoseNoEmitRecordedConcurrentlyWithSampling() throws InterruptedException {
        QueueMonitor monitor = new QueueMonitor(queue::get, clock, 0);
        int threads = 3;
        int perThread = 50_000;
        try (ConcurrentRecorders recorders = ConcurrentRecorders.start(threads, perThread, () -> monitor.recordEmit(8_000, 2))) {
            while (!recorders.awaitDone(1, TimeUnit.MILLISECONDS)) {
                monitor.sample();
                assertTrue(Double.isNaN(monitor.emitNanosPerReplica()) || monitor.emitNanosPerReplica() == 4_000,
                        "an interval never sees half a record");
            }
        }
        monitor.sample();
        assertEquals((long) threads * perThread, monitor.tuplesMeasured());
        assertEquals(4_000, monitor.emitNanosPerReplica(), 1e-9);
    }

    @Test
    void recordingAnEmitAllocatesNothing() {
        QueueMonitor monitor = new QueueMonitor(queue::get, clock, 0.5);
        Runnable burst = () -> {
            for (int i = 0; i < 200_000; i++) {
                monitor.recordEmit(4_000, 3);
            }
        };
        burst.run();
        long bytes = Allocations.allocatedBy(burst);
        assertTrue(bytes < 1024, "200k emits allocated " + bytes + " bytes");
    }
}
