package io.whale.bench.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PaperOptionsTest {
    @Test
    void shouldRunEveryFigureOnEverySystemItComparesByDefault() {
        PaperOptions o = PaperOptions.parse();
        assertEquals(List.of(PaperFigure.values()), o.figures());
        assertEquals(List.of(PaperApp.RIDEHAILING, PaperApp.STOCK), o.apps());
        assertEquals(List.of(PaperSystem.values()), o.systems(), "Storm first: its capacity sets each round's common rate");
        assertEquals(List.of(8, 16, 32), o.matchers());
        assertEquals(3, o.repeats());
        assertEquals(o.hosts(), o.workers(), "one worker per host");
    }

    @Test
    void shouldKeepTheQuickRunSmallAndLeaveOutTheOwnLoadPhaseAndTheBinomialSeries() {
        PaperOptions o = PaperOptions.parse("--quick");
        assertEquals(List.of(8), o.matchers());
        assertEquals(1, o.repeats());
        assertEquals(0, o.load());
        assertFalse(o.systems().contains(PaperSystem.WOC_RDMA_BINOMIAL));
        assertTrue(o.systems().contains(PaperSystem.WOC_RDMA_NONBLOCK));
    }

    @Test
    void shouldRunOnlyTheApplicationsAndSystemsOfTheFiguresAsked() {
        PaperOptions o = PaperOptions.parse("--figures", "19,20");
        assertEquals(List.of(PaperApp.STOCK), o.apps());
        assertEquals(List.of(PaperSystem.STORM, PaperSystem.WOC_RDMA, PaperSystem.WOC_RDMA_BINOMIAL, PaperSystem.WOC_RDMA_NONBLOCK),
            o.systems());
        assertEquals(List.of(PaperSystem.STORM, PaperSystem.WOC), PaperOptions.parse("--systems", "whale-woc,storm").systems());
    }

    @Test
    void shouldNameTheBadInputInItsError() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--figures", "13,21")).getMessage()
            .contains("not '21'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--systems", "flink")).getMessage()
            .contains("not 'flink'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--load", "1.5")).getMessage()
            .startsWith("--load"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--hosts", "1")).getMessage()
            .startsWith("--hosts must be at least 2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--repeats")).getMessage()
            .startsWith("--repeats needs a value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PaperOptions.parse("--bogus")).getMessage()
            .startsWith("unknown option --bogus"));
    }
}
