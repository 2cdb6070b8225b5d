package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Finds the capacity window's edges in the feed's events, as the driver reads them: the capacity phase measures window
 * after window while its drain rate rises, and C is read from the last, so the window opens again at every event that
 * starts one of them and closes at the next event of another phase (the drain after it). Only that one: the drains after
 * the probes are not its end.
 */
final class CapacityEdges {
    enum Edge { NONE, OPENS, CLOSES }

    private boolean open;
    private boolean closed;

    /** What {@code event} (a line of {@code feed-events.jsonl}) is to the capacity phase. */
    Edge of(JsonNode event) {
        String phase = event.path("phase").asText();
        boolean capacity = phase.equals(FeedSchedule.Phase.CAPACITY.label());
        if (!closed && capacity && event.path("measuring").asBoolean()) {
            open = true;
            return Edge.OPENS;
        }
        if (open && !closed && !capacity) {
            closed = true;
            return Edge.CLOSES;
        }
        return Edge.NONE;
    }
}
