package io.whale.multicast.control;

/**
 * What {@link LiveControl} asks for: move the trees to the effective out-degree bound {@code toDegree}.
 *
 * @param up       a scale-up (or a drill's switch to the full tree)
 * @param reason   why, as the switch's log line reads it
 * @param decision the controller's decision; null for a drill's forced switch
 */
public record SwitchRequest(int toDegree, boolean up, String reason, Decision decision) {
}
