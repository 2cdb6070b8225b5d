package io.whale.nimbus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.storm.daemon.nimbus.HeartbeatCache;
import org.apache.storm.generated.Assignment;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.SupervisorWorkerHeartbeat;
import org.apache.storm.stats.ClientStatsUtil;
import org.apache.storm.utils.Time;
import org.junit.jupiter.api.Test;

/**
 * Nimbus's view of which executors live (patch 0002 of storm-server's series, Storm 2.8.5's fix): a heartbeat that a
 * supervisor relays over RPC proves its executors alive even when it carries the same time as the last one; a
 * ZooKeeper heartbeat whose time never moves does not.
 */
class HeartbeatCacheTest {
    private static final String TOPOLOGY = "topo-1-1";
    private static final List<Integer> EXECUTOR = List.of(1, 1);
    private static final int TASK_TIMEOUT_SECS = 30;
    private static final int TASK_LAUNCH_SECS = 10;

    @Test
    void shouldKeepAnExecutorAliveWhileItsRpcHeartbeatsArriveWithARepeatedTime() {
        try (Time.SimulatedTime time = new Time.SimulatedTime()) {
            HeartbeatCache cache = new HeartbeatCache();
            Assignment assignment = startedNow();
            SupervisorWorkerHeartbeat beat = new SupervisorWorkerHeartbeat(TOPOLOGY, List.of(new ExecutorInfo(1, 1)), Time.currentTimeSecs());

            cache.updateHeartbeat(beat, TASK_TIMEOUT_SECS);
            Time.advanceTimeSecs(20);
            cache.updateHeartbeat(beat, TASK_TIMEOUT_SECS);
            Time.advanceTimeSecs(20);
            cache.timeoutOldHeartbeats(TOPOLOGY, TASK_TIMEOUT_SECS);

            assertEquals(Set.of(EXECUTOR), cache.getAliveExecutors(TOPOLOGY, Set.of(EXECUTOR), assignment, TASK_LAUNCH_SECS));
        }
    }

    @Test
    void shouldTimeOutAnExecutorWhoseZookeeperHeartbeatNeverChanges() {
        try (Time.SimulatedTime time = new Time.SimulatedTime()) {
            HeartbeatCache cache = new HeartbeatCache();
            Assignment assignment = startedNow();
            Map<List<Integer>, Map<String, Object>> beats = Map.of(EXECUTOR, Map.of(ClientStatsUtil.TIME_SECS, Time.currentTimeSecs()));

            cache.updateFromZkHeartbeat(TOPOLOGY, beats, Set.of(EXECUTOR), TASK_TIMEOUT_SECS);
            Time.advanceTimeSecs(20);
            cache.updateFromZkHeartbeat(TOPOLOGY, beats, Set.of(EXECUTOR), TASK_TIMEOUT_SECS);
            Time.advanceTimeSecs(20);
            cache.timeoutOldHeartbeats(TOPOLOGY, TASK_TIMEOUT_SECS);

            assertEquals(Set.of(), cache.getAliveExecutors(TOPOLOGY, Set.of(EXECUTOR), assignment, TASK_LAUNCH_SECS));
        }
    }

    private static Assignment startedNow() {
        Assignment assignment = new Assignment("/tmp/unused");
        assignment.set_executor_start_time_secs(Map.of(List.of(1L, 1L), (long) Time.currentTimeSecs()));
        return assignment;
    }
}
