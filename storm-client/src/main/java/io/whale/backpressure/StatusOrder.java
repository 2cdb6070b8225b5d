package io.whale.backpressure;

import java.util.Objects;

/**
 * Applies one remote worker's backpressure statuses in the order that worker took them (their ids). Storm's server
 * sends statuses from two threads, the Netty thread that finds a task's queue full and the timer that finds it
 * drained, and Netty writes the timer's later than the moment it was taken: applied as they arrive, an old
 * "drained" can clear the flag of a task whose queue is full again, and the sender floods it until Storm re-sends
 * the status after another 10,000 tuples in the task's overflow (patch 0017). One per connection, so for one remote
 * worker; a status from another worker id (the worker restarted, its ids start again) starts afresh.
 */
public final class StatusOrder {
    private String workerId;
    private long lastId;

    /** Whether the status {@code id} of {@code workerId} is newer than every one applied before (then it is the last). */
    public boolean isNewest(String workerId, long id) {
        if (!Objects.equals(workerId, this.workerId)) {
            this.workerId = workerId;
            this.lastId = id;
            return true;
        }
        if (id <= lastId) {
            return false;
        }
        lastId = id;
        return true;
    }
}
