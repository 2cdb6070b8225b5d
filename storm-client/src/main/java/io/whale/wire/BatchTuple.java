package io.whale.wire;

/**
 * One decoded BatchTuple frame: a tuple emitted by {@code sourceTask} on {@code stream}, addressed to
 * {@code destTasks} of one worker. {@code seeds} gives each copy's anchors-to-ids map (Storm's {@code MessageId},
 * {@link EdgeSeeds#idsOf}); it is null when the emit was unanchored.
 * The values stay serialized: they are the bytes {@code frame[valuesOffset, valuesOffset + valuesLength)}.
 */
public record BatchTuple(int sourceTask, String stream, int[] destTasks, EdgeSeeds seeds,
                         byte[] frame, int valuesOffset, int valuesLength) {
}
