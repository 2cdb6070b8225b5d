package io.whale.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.wire.FrameCredit;
import io.whale.wire.RelayCredit;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.messaging.TaskMessage;
import org.junit.jupiter.api.Test;

class ConnectionCreditTest {
    private final List<String> told = new ArrayList<>();
    private final RelayLink link = new RelayLink() {
        @Override
        public void credited(List<RelayCredit.Entry> entries) {
            told.add("credited " + entries);
        }

        @Override
        public void disconnected() {
            told.add("disconnected");
        }
    };

    @Test
    void shouldCreditTheWindowAndTheRelayAndLeaveStormsMessagesForTheTransport() {
        ConnectionCredit credit = new ConnectionCredit(new FrameWindow(100));
        credit.connected();
        assertTrue(credit.frameWindow().tryAcquire(30));
        credit.relayLink(link);
        TaskMessage load = new TaskMessage(-1, new byte[] {1});

        List<TaskMessage> left = credit.takeCredits(List.of(FrameCredit.message(20),
            RelayCredit.message(List.of(new RelayCredit.Entry(7, 5))), load));

        assertEquals(List.of(load), left, "Storm's load metrics stay for its handler");
        assertEquals(10, credit.frameWindow().inFlight());
        assertEquals(List.of("credited [Entry[incarnation=7, tuples=5]]"), told);
        assertNull(credit.takeCredits(List.of(FrameCredit.message(10))), "nothing left for the transport");
        assertEquals(0, credit.frameWindow().inFlight());
    }

    @Test
    void shouldTellTheRelayWhenTheConnectionIsGoneAndEmptyTheWindow() {
        ConnectionCredit credit = new ConnectionCredit(new FrameWindow(100));
        credit.connected();
        credit.frameWindow().tryAcquire(40);
        credit.disconnected();
        assertEquals(0, credit.frameWindow().inFlight(), "what was in flight is not awaited");

        credit.relayLink(link);
        credit.disconnected();
        assertEquals(List.of("disconnected"), told);
    }
}
