package io.whale.woc;

import java.util.List;
import java.util.Map;

/**
 * One decoded BatchTuple frame: a tuple emitted by {@code sourceTask} on {@code stream}, addressed to
 * {@code destTasks} of one worker. {@code messageIds.get(i)} is the anchors-to-ids map (Storm's
 * {@code MessageId}) of the copy for {@code destTasks[i]}; it is null when the emit was unanchored.
 * The values stay serialized: they are the bytes {@code frame[valuesOffset, valuesOffset + valuesLength)}.
 */
public record BatchTuple(int sourceTask, String stream, int[] destTasks, List<Map<Long, Long>> messageIds,
                         byte[] frame, int valuesOffset, int valuesLength) {

    public boolean hasMessageIds() {
        return messageIds != null;
    }
}
