package io.whale.rdma.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.rdma.spi.Poller;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ConsumptionReportTest {
    private static final long MS = 1_000_000L;

    @Test
    void shouldCoverTheReleasesOfItsDelayWithOneReportOfTheLastPrefix() {
        ConsumptionReport report = new ConsumptionReport(10 * MS, 1_000_000);
        assertEquals(Poller.NO_DEADLINE, report.deadline(), "nothing released, nothing to report");

        assertFalse(report.released(1, 300, 300, 100 * MS));
        assertFalse(report.released(2, 600, 300, 104 * MS));
        assertFalse(report.released(4, 1_200, 600, 109 * MS));
        assertEquals(110 * MS, report.deadline(), "counted from the first release it covers");
        assertFalse(report.due(109 * MS));
        assertTrue(report.due(110 * MS));

        assertConsumed(4, 1_200, report.take());
        assertEquals(Poller.NO_DEADLINE, report.deadline());
        assertFalse(report.due(200 * MS));
    }

    @Test
    void shouldStartTheNextDelayAtTheFirstReleaseAfterAReport() {
        ConsumptionReport report = new ConsumptionReport(10 * MS, 1_000_000);
        report.released(1, 300, 300, 100 * MS);
        report.take();

        assertFalse(report.released(2, 600, 300, 150 * MS));
        assertEquals(160 * MS, report.deadline());
    }

    @Test
    void shouldReportAtOnceWhenAQuarterOfTheRingWaitsOnIt() {
        ConsumptionReport report = new ConsumptionReport(10 * MS, 4_096);
        assertFalse(report.released(1, 2_000, 2_000, 100 * MS));
        assertTrue(report.released(2, 4_096, 2_096, 101 * MS), "4,096 bytes released and unreported");
        assertConsumed(2, 4_096, report.take());
        assertFalse(report.released(3, 5_000, 904, 102 * MS), "the count starts again after a report");
    }

    @Test
    void shouldReportEveryReleaseWithoutADelay() {
        ConsumptionReport report = new ConsumptionReport(0, 4_096);
        assertTrue(report.released(1, 100, 100, 100 * MS));
        assertConsumed(1, 100, report.take());
        assertTrue(report.released(2, 200, 100, 100 * MS));
    }

    private static void assertConsumed(long seq, long end, ByteBuffer message) {
        assertEquals(Control.CONSUMED, message.get());
        assertEquals(seq, message.getLong());
        assertEquals(end, message.getLong());
        assertFalse(message.hasRemaining());
    }
}
