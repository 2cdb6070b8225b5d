package io.whale.examples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class ResultBinsTest {
    @Test
    void shouldCountEachResultInTheHundredMillisecondBinItArrivedInUpToTheIntervalsEnd() {
        ResultBins bins = new ResultBins(10_000);
        bins.record(10_050, 30);
        bins.record(10_099, 50);
        bins.record(10_250, 400);
        assertEquals(List.of(2L, 0L, 1L, 0L, 0L), bins.results(10_500), "five bins to the end, the empty ones included");
        assertEquals(List.of(80L, 0L, 400L, 0L, 0L), bins.latencySums(10_500));

        bins.reset(10_500);
        bins.record(10_620, 7);
        assertEquals(10_500, bins.startMillis());
        assertEquals(List.of(0L, 1L, 0L), bins.results(10_780), "the next interval starts afresh; a partial last bin counts");
    }
}
