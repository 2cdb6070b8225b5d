package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Finds the capacity window's edges in the feed's events, as the driver reads them: it opens at the event that starts
 * the capacity phase's measurement and closes at the next event of another phase (the drain after it). Only that one:
 * the drains after the probes are not its end.
 */
final class CapacityEdges {
    enum Edge { NONE, OPENS, CLOSES }

    private boolean open;
    private boolean closed;

    /** What {@code event} (a line of {@code feed-events.jsonl}) is to the capacity phase. */
    Edge of(JsonNode event) {
        String phase = event.path("phase").asText();
        if (!open && phase.equals(FeedSchedule.Phase.CAPACITY.label()) && event.path("measuring").asBoolean()) {
            open = true;
            return Edge.OPENS;
        }
        if (open && !closed && !phase.equals(FeedSchedule.Phase.CAPACITY.label())) {
            closed = true;
            return Edge.CLOSES;
        }
        return Edge.NONE;
    }
}
