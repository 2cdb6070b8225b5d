package io.whale.multicast.control;

public enum Direction {
    /** Negative scale-down: fewer children for the source, so it drains its queue faster. */
    SCALE_DOWN,
    /** Active scale-up: more children for the source, so the tree gets shallower. */
    SCALE_UP
}
