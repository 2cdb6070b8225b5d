package io.whale.examples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class RecordProgressTest {
    private final RecordProgress progress = new RecordProgress(Map.of("split", 1, "matcher", 3)::get);

    @Test
    void shouldAddTheRecordsTasksShareAndCountABroadcastRecordOnceEveryTaskFinishedIt() {
        assertFalse(progress.any());
        progress.update("split", 1, 4, 0);
        progress.update("matcher", 2, 10, 50);
        progress.update("matcher", 3, 20, 40);
        assertTrue(progress.any());
        assertEquals(4 + 10 + 20, progress.records(), "the third matcher has finished no broadcast record yet");

        progress.update("matcher", 4, 5, 45);
        assertEquals(4 + 10 + 20 + 5 + 40, progress.records());
    }

    @Test
    void shouldTakeATasksLatestRunningCountsInPlaceOfItsEarlierOnes() {
        progress.update("split", 1, 4, 0);
        progress.update("split", 1, 9, 0);
        assertEquals(9, progress.records());
    }
}
