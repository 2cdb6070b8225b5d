package io.whale.suites;

import static io.whale.suites.WorkerTrafficRecorder.Traffic.NETTY_MESSAGES_SENT;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.RDMA_MESSAGES_DROPPED;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.RDMA_MESSAGES_MALFORMED;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.RDMA_MESSAGES_RECEIVED;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.RDMA_MESSAGES_SENT;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.WOC_ACKS_OFFERED;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.WOC_ACKS_SENT;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.WOC_FRAMES_MALFORMED;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.WOC_FRAMES_RECEIVED;
import static io.whale.suites.WorkerTrafficRecorder.Traffic.WOC_FRAMES_SENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.suites.WorkerTrafficRecorder.Traffic;
import java.util.Arrays;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Guards each run of the upstream suites: its mode's daemon conf was picked up, and the upstream classes that ran
 * before this one (it is ordered last) really used what the mode switches on — LocalCluster workers sent their
 * messages over the real transport (Netty, or RDMA in the {@code woc-rdma} mode), and with WOC on, broadcasting
 * tests sent BatchTuple frames. Without these checks a mode whose conf is not in effect would pass as the
 * in-process stock run.
 */
@Order(Integer.MAX_VALUE)
class ModeInEffectTest {
    /** The runs of pom.xml, named by {@code whale.suites.mode}. */
    enum Mode {
        SHIPPED(false, false), WOC(true, false), WOC_RDMA(true, true);

        final boolean woc;
        final boolean rdma;

        Mode(boolean woc, boolean rdma) {
            this.woc = woc;
            this.rdma = rdma;
        }

        static Mode ofThisRun() {
            String name = System.getProperty("whale.suites.mode", "(unset)");
            return Arrays.stream(values()).filter(m -> m.name().replace('_', '-').equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("whale.suites.mode must be one of shipped, woc, woc-rdma,"
                    + " not " + name));
        }
    }

    private final Mode mode = Mode.ofThisRun();

    @Test
    void shouldReadThisModesDaemonConf() {
        Map<String, Object> conf = Utils.readStormConfig();
        assertEquals(Boolean.TRUE, conf.get(Config.STORM_LOCAL_MODE_ZMQ), Config.STORM_LOCAL_MODE_ZMQ);
        assertEquals(mode.woc, Boolean.TRUE.equals(conf.get("whale.woc.enabled")), "whale.woc.enabled");
        assertEquals(mode.rdma ? "rdma" : null, conf.get("whale.transport"), "whale.transport");
    }

    @Test
    void shouldHaveSentWorkersMessagesOverThisModesTransport() {
        Traffic used = mode.rdma ? RDMA_MESSAGES_SENT : NETTY_MESSAGES_SENT;
        Traffic unused = mode.rdma ? NETTY_MESSAGES_SENT : RDMA_MESSAGES_SENT;
        assertTrue(WorkerTrafficRecorder.total(used) > 0, "no worker sent a message over " + used + "; by test: "
            + WorkerTrafficRecorder.byTest(used));
        assertEquals(0, WorkerTrafficRecorder.total(unused),
            unused + " by test: " + WorkerTrafficRecorder.byTest(unused));
        if (mode.rdma) {
            assertTrue(WorkerTrafficRecorder.total(RDMA_MESSAGES_RECEIVED) > 0, "RDMA messages received");
            assertEquals(0, WorkerTrafficRecorder.total(RDMA_MESSAGES_DROPPED), "RDMA messages dropped");
            assertEquals(0, WorkerTrafficRecorder.total(RDMA_MESSAGES_MALFORMED), "RDMA messages malformed");
        }
        System.out.println(mode + ": " + used + " by test " + WorkerTrafficRecorder.byTest(used));
    }

    @Test
    void shouldHaveSentBroadcastsAsWocFramesOnlyWithWocOn() {
        Map<String, Long> senders = WorkerTrafficRecorder.byTest(WOC_FRAMES_SENT);
        System.out.println(mode + ": " + WOC_FRAMES_SENT + " by test " + senders);
        if (mode.woc) {
            assertTrue(WorkerTrafficRecorder.total(WOC_FRAMES_SENT) > 0, "no upstream test sent a WOC frame");
            assertTrue(WorkerTrafficRecorder.total(WOC_FRAMES_RECEIVED) > 0, "no worker received a WOC frame");
        } else {
            assertEquals(Map.of(), senders, "WOC frames sent with WOC off");
        }
        assertEquals(0, WorkerTrafficRecorder.total(WOC_FRAMES_MALFORMED), "malformed WOC frames");
    }

    @Test
    void shouldHaveCombinedTheAcksOfTheAckingTestsOnlyWithWocOn() {
        Map<String, Long> combined = WorkerTrafficRecorder.byTest(WOC_ACKS_SENT);
        System.out.println(mode + ": " + WOC_ACKS_SENT + " by test " + combined);
        if (mode.woc && !mode.rdma) {
            // the acking tests are single-worker ones, which run in this mode only
            assertTrue(WorkerTrafficRecorder.total(WOC_ACKS_SENT) > 0, "no upstream test's acks went through the ack combining");
            assertTrue(WorkerTrafficRecorder.total(WOC_ACKS_SENT) < WorkerTrafficRecorder.total(WOC_ACKS_OFFERED),
                "no ack was combined with another: " + WorkerTrafficRecorder.total(WOC_ACKS_SENT) + " sent of "
                    + WorkerTrafficRecorder.total(WOC_ACKS_OFFERED));
        } else if (!mode.woc) {
            assertEquals(Map.of(), combined, "acks combined with WOC off");
        }
    }
}
