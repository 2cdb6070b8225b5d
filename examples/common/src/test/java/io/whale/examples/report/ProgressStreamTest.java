package io.whale.examples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

class ProgressStreamTest {
    @Test
    void shouldSendTheRunningCountsOnlyWhenTheyMovedSinceTheLastSend() {
        List<Values> sent = new ArrayList<>();
        ProgressStream progress = new ProgressStream();
        progress.send((stream, values) -> sent.add(values));
        progress.countPartitioned();
        progress.countBroadcast();
        progress.countBroadcast();
        progress.send((stream, values) -> sent.add(values));
        progress.send((stream, values) -> sent.add(values));
        progress.countPartitioned();
        progress.send((stream, values) -> {
            assertEquals(ProgressStream.ID, stream);
            sent.add(values);
        });

        assertEquals(List.of(new Values(1L, 2L), new Values(2L, 2L)), sent);
    }
}
