package io.whale.bench.paper;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Finds the capacity phase's edges in the feed's events, as the driver reads them: its warm-up begins at its first
 * event, its window opens at the event that starts its measurement and closes at the next event of another phase (the
 * drain after it). Only that one: the drains after the probes are not its end.
 */
final class CapacityEdges {
    enum Edge { NONE, WARMS_UP, OPENS, CLOSES }

    private boolean warming;
    private boolean open;
    private boolean closed;

    /** What {@code event} (a line of {@code feed-events.jsonl}) is to the capacity phase. */
    Edge of(JsonNode event) {
        String phase = event.path("phase").asText();
        if (!warming && !open && phase.equals(FeedSchedule.Phase.CAPACITY.label()) && !event.path("measuring").asBoolean()) {
            warming = true;
            return Edge.WARMS_UP;
        }
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
